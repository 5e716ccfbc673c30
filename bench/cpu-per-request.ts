/**
 * CPU time per request of the serving process, the figure that holds on a loaded machine where req/s does not:
 * each path is served by a process of its own (bench/cpu-server.ts), loaded with a fixed number of requests by
 * autocannon from this process (10 connections), and reports `process.cpuUsage()` over them. The sandbox runs in
 * a process of its own too, so none of its work is counted. With PostgreSQL, also the statements the pool sent
 * per request (round trips) and the CPU of the database's backends per request.
 *
 * `pnpm exec tsx bench/cpu-per-request.ts [--requests 5000] [--rounds 3] [--paths proxy,handler,memory,postgres]
 * [--runtime host|node22|node24|bun] [--tsx]`
 *
 * - `proxy`: bare node:http + `fetch` to the sandbox, no paykit (the handler bench's bare proxy);
 * - `handler`: the handler through `@paykit/server/node`, no Idempotency-Key (the handler bench's path);
 * - `memory`, `postgres`: the same with a new `Idempotency-Key` on every request, on the memory stores and on
 *   the PostgreSQL stores (the instances bench's create route).
 *
 * Each server runs JavaScript as paykit ships it: `bench/cpu-server.ts` and the paykit modules it imports as one
 * bundle (`@paykit/test-support/node-entry`; the packages are published as tsc's JavaScript), not through tsx, whose
 * transform wraps every function made at run time in a naming call (esbuild's `keepNames`; in CPU profiles the
 * handler's own code took 82 µs of self time per request through tsx, 66 as a bundle, all of it counted as paykit's
 * before). `--tsx` serves the TypeScript through tsx as before.
 *
 * A path may name another checkout of the repository to serve it from, for a before/after in one run:
 * `--paths handler@/path/to/other/checkout,handler` (that checkout needs bench/cpu-server.ts and its install; one
 * without node-entry is served through tsx).
 *
 * `--runtime` serves every path on another runtime of test/runtimes/runtimes.json (installed by `bash
 * scripts/bootstrap.sh --runtimes`): Node running the same bundle as the host's, Bun the TypeScript itself. The sandbox,
 * the load and the database stay on the host's Node.
 *
 * Each round runs every path once, in turn (warmed first with as many requests, unmeasured); the medians follow,
 * then each handler path's median over the proxy's (the issue 36 goal: at most 1.15 on Node).
 */
import type { nodeEntry as buildEntry } from '@paykit/test-support/node-entry';
import { startTestPostgres } from '@paykit/test-support/postgres';
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { installedBinary, runtimeEntry } from '../test/runtimes/installed.js';
import { sandboxProcess } from './handler-throughput.js';

type Path = string;

/** The kind of a path, without the checkout it may name. */
const kindOf = (path: Path) => path.split('@')[0] as 'proxy' | 'handler' | 'memory' | 'postgres';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '3' },
    paths: { type: 'string', default: 'proxy,handler,memory,postgres' },
    runtime: { type: 'string', default: 'host' },
    tsx: { type: 'boolean', default: false },
  },
});
/** The runtime that serves the paths: the host's Node, or one of the matrix's. */
const runtime =
  values.runtime === 'host'
    ? undefined
    : { execPath: installedBinary(runtimeEntry(values.runtime)), bun: values.runtime === 'bun' };
const requests = Number(values.requests);
const paths = values.paths.split(',') as Path[];

/** One path's server process. */
interface Served {
  url: string;
  child: ChildProcess;
  ask<T>(message: string): Promise<T>;
}

async function serve(path: Path, sandboxUrl: string, database?: { url: string; prefix: string }): Promise<Served> {
  const kind = kindOf(path);
  const mode = kind === 'proxy' ? 'proxy' : kind === 'postgres' ? 'handler-postgres' : 'handler';
  const tree = path.split('@')[1];
  const { script, loader } = await serverScript(tree);
  const child = fork(
    script,
    [mode, sandboxUrl, 'sandbox_api_key_demo_store', ...(database ? [database.url, database.prefix] : [])],
    {
      ...(tree ? { cwd: tree } : {}),
      ...(runtime ? { execPath: runtime.execPath } : {}),
      execArgv: [...loader, ...process.execArgv.filter((arg) => arg.startsWith('--cpu-prof'))],
    },
  );
  const next = <T>(): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const ended = (code: number | null) => reject(new Error(`${path} server ended (${code})`));
      child.once('exit', ended);
      child.once('message', (message) => {
        child.off('exit', ended);
        resolve(message as T);
      });
    });
  const { url } = await next<{ url: string }>();
  return {
    url,
    child,
    ask<T>(message: string) {
      const answer = next<T>();
      child.send(message);
      return answer;
    },
  };
}

/**
 * The server's script: the bundle of `tree`'s (or this checkout's) bench/cpu-server.ts, built by that checkout's
 * own node-entry; the TypeScript itself on Bun (which runs it without a loader), with `--tsx`, or for a checkout
 * older than node-entry.
 */
async function serverScript(tree: string | undefined): Promise<{ script: string; loader: string[] }> {
  const root = tree === undefined ? new URL('../', import.meta.url) : pathToFileURL(`${tree}/`);
  const source = fileURLToPath(new URL('bench/cpu-server.ts', root));
  if (runtime?.bun) return { script: source, loader: [] };
  const builder = new URL('packages/test-support/src/node-entry.ts', root);
  if (values.tsx || !existsSync(builder)) return { script: source, loader: ['--import', 'tsx'] };
  const { nodeEntry } = (await import(builder.href)) as { nodeEntry: typeof buildEntry };
  return { script: await nodeEntry(source), loader: [] };
}

let sent = 0;
function load(url: string, keyed: boolean, amount: number): Promise<autocannon.Result> {
  const headers = { 'content-type': 'application/json' };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}/paykit/payment-requests`,
        method: 'POST',
        headers,
        body: JSON.stringify({ amount: '12.50', currency: 'SGD' }),
        connections: 10,
        amount,
        ...(keyed
          ? {
              requests: [
                {
                  setupRequest: (request: autocannon.Request) => ({
                    ...request,
                    headers: { ...headers, 'idempotency-key': `cpu-bench-${process.pid}-${(sent += 1)}` },
                  }),
                },
              ],
            }
          : {}),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** CPU ticks (user + system) of the processes, from /proc (Linux); 0 for one that is gone. */
function ticksOf(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      total += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited
    }
  }
  return total;
}

const sandbox = await sandboxProcess();
const database = paths.some((path) => kindOf(path) === 'postgres') ? await startTestPostgres() : undefined;
const admin = database ? new pg.Client({ connectionString: database.url }) : undefined;
await admin?.connect();
const servers = new Map<Path, Served>();
const figures = new Map<Path, { cpuUs: number[]; statements: number[]; databaseUs: number[]; non2xx: number }>();
try {
  for (const path of paths) {
    servers.set(
      path,
      await serve(
        path,
        sandbox.url,
        kindOf(path) === 'postgres'
          ? { url: database!.url, prefix: `paykit_b${randomBytes(4).toString('hex')}_` }
          : undefined,
      ),
    );
    figures.set(path, { cpuUs: [], statements: [], databaseUs: [], non2xx: 0 });
  }
  const rounds = Number(values.rounds);
  for (let index = 0; index < rounds; index += 1) {
    for (const path of index % 2 === 0 ? paths : [...paths].reverse()) {
      const served = servers.get(path)!;
      const keyed = kindOf(path) === 'memory' || kindOf(path) === 'postgres';
      await load(served.url, keyed, requests);
      const backends = admin
        ? (
            await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid()')
          ).rows.map((row) => row.pid)
        : [];
      const ticks = ticksOf(backends);
      await served.ask('start');
      const result = await load(served.url, keyed, requests);
      const used = await served.ask<{ userUs: number; systemUs: number; statements: number }>('stop');
      const databaseTicks = ticksOf(backends) - ticks;
      const figure = figures.get(path)!;
      figure.cpuUs.push((used.userUs + used.systemUs) / result.requests.total);
      figure.statements.push(used.statements / result.requests.total);
      figure.databaseUs.push((databaseTicks * 10_000) / result.requests.total);
      figure.non2xx += result.non2xx;
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    `| path | server CPU µs/request (median; each round) | statements/request | database backends CPU µs/request | non-2xx |`,
  );
  console.log('|---|---|---|---|---|');
  for (const [path, figure] of figures) {
    const each = figure.cpuUs.map((x) => x.toFixed(0)).join(', ');
    const db = kindOf(path) === 'postgres' ? `${median(figure.databaseUs).toFixed(0)}` : '';
    const statements = kindOf(path) === 'postgres' ? median(figure.statements).toFixed(2) : '';
    console.log(
      `| ${path} | ${median(figure.cpuUs).toFixed(0)} (${each}) | ${statements} | ${db} | ${figure.non2xx} |`,
    );
  }
  const proxy = [...figures].find(([path]) => kindOf(path) === 'proxy')?.[1];
  if (proxy) {
    for (const [path, figure] of figures) {
      if (kindOf(path) === 'proxy') continue;
      console.log(
        `${path} / proxy on ${values.runtime}: ${(median(figure.cpuUs) / median(proxy.cpuUs)).toFixed(2)} (server CPU per request, medians${kindOf(path) === 'handler' ? '; goal on Node: at most 1.15' : ''})`,
      );
    }
  }
} finally {
  for (const served of servers.values()) {
    served.child.send('exit');
    await new Promise((resolve) => served.child.once('exit', resolve));
  }
  await admin?.end();
  await database?.close();
  sandbox.child.kill('SIGTERM');
}
