/**
 * Requests per second and p99 latency of `POST /paykit/payment-requests` through the node adapter, beside a bare
 * node:http + `fetch` proxy making the same API call, in the same run: the handler's overhead as ratios. Twice:
 * with the sandbox in this process (it then competes for the same event loop) and in a process of its own (as
 * the real API would be). Beside each path, the event-loop delay of the process serving it. 127.0.0.1 only.
 */
import { startSandbox } from '@paykit/sandbox';
import { createPaykitHandler } from '@paykit/server';
import { toNodeListener } from '@paykit/server/node';
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { bareProxy, benchApiHeaders, BENCH_FORM } from './bare-proxy.js';

/** One path's load. */
export interface LoadFigures {
  requestsPerSecond: number;
  /** Over every response of every round (not the worst round's). */
  p99Ms: number;
  non2xx: number;
  /** The p99 of the serving process's event-loop delay while this path was loaded, in ms. */
  loopDelayP99Ms?: number;
  /**
   * CPU time of the bench's process per request while this path was loaded, in µs: the path's own cost plus the
   * load generator's (and the sandbox's, when it is in the process), so that differences between paths are theirs.
   */
  cpuUsPerRequest?: number;
}

/** Where the sandbox ran and what each path did against it. */
export interface HandlerThroughput {
  sandboxWhere: 'same process' | 'own process';
  sandbox: LoadFigures;
  proxy: LoadFigures;
  handler: LoadFigures;
}

/** A load's raw outcome, to be merged with the other rounds of its path. */
export interface Round {
  latenciesMs: number[];
  requests: number;
  seconds: number;
  non2xx: number;
  /** CPU time of this process over the round (user + system), in µs. */
  cpuUs: number;
}

/**
 * One load of `seconds` on 10 connections, every response timed. `perRequest` adds headers to each request (a new
 * `Idempotency-Key` each time, say).
 */
export async function round(
  url: string,
  body: string,
  seconds: number,
  headers: Record<string, string>,
  perRequest?: () => Record<string, string>,
): Promise<Round> {
  const latenciesMs: number[] = [];
  const cpu = process.cpuUsage();
  // The callback form: it hands back the instance, whose 'response' event times each answer.
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const requests = perRequest
      ? [{ setupRequest: (request: autocannon.Request) => ({ ...request, headers: { ...headers, ...perRequest() } }) }]
      : undefined;
    const instance = autocannon(
      { url, method: 'POST', headers, body, connections: 10, duration: seconds, ...(requests ? { requests } : {}) },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latenciesMs.push(responseTime));
  });
  const used = process.cpuUsage(cpu);
  return {
    latenciesMs,
    requests: result.requests.total,
    seconds: result.duration,
    non2xx: result.non2xx,
    cpuUs: used.user + used.system,
  };
}

/** Rounds of one path as one load: requests over the whole time, the p99 of every response. */
export function merge(rounds: readonly Round[], loop?: IntervalHistogram): LoadFigures {
  const all = rounds.flatMap((r) => r.latenciesMs).sort((a, b) => a - b);
  const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0);
  const requests = rounds.reduce((sum, r) => sum + r.requests, 0);
  return {
    requestsPerSecond: requests / Math.max(seconds, 1e-9),
    p99Ms: all.length === 0 ? 0 : all[Math.min(all.length - 1, Math.floor(all.length * 0.99))]!,
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
    ...(loop ? { loopDelayP99Ms: loop.percentile(99) / 1e6 } : {}),
    cpuUsPerRequest: rounds.reduce((sum, r) => sum + r.cpuUs, 0) / Math.max(requests, 1),
  };
}

/** The sandbox in a process of its own (its command line), resolving with its URL and a way to stop it. */
export async function sandboxProcess(): Promise<{ url: string; child: ChildProcess }> {
  const cli = fileURLToPath(new URL('../packages/sandbox/src/cli.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(seen);
      if (found) resolve(found[1]!);
    });
    child.once('exit', () => reject(new Error(`the sandbox process ended before listening: ${seen}`)));
  });
  return { url, child };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * Loads the sandbox alone, then the proxy and the handler warm and side by side, for `seconds` rounds each.
 *
 * Both run unmeasured for 5 s first: they share Node's `fetch` and the handler its own code, which take seconds of
 * load to be optimised, so whichever ran first used to pay for that warm-up alone. Then they take turns in
 * one-second rounds (the proxy first in the first round, the handler first in the next, and so on): a burst of
 * other work on the machine slows both alike. Each path's p99 is over all of its responses.
 */
export async function measureHandlerThroughput(
  seconds = 5,
  sandboxWhere: HandlerThroughput['sandboxWhere'] = 'same process',
): Promise<HandlerThroughput> {
  const own = sandboxWhere === 'own process' ? await sandboxProcess() : undefined;
  const inProcess = own ? undefined : await startSandbox({ port: 0 });
  const sandboxUrl = own?.url ?? inProcess!.url;
  const apiKey = inProcess?.seed.apiKey ?? 'sandbox_api_key_demo_store';
  const handler = createPaykitHandler({
    api: { apiBaseUrl: sandboxUrl, apiKey },
    createPaymentRequest: () => ({ amount: '12.50', currency: 'SGD', purpose: 'Bench' }),
    // Requests still in flight when the sandbox stops are not news.
    logger: { warn: () => undefined, error: () => undefined },
  });
  const form = BENCH_FORM;
  const apiHeaders = benchApiHeaders(apiKey);
  const proxy = createServer(bareProxy(sandboxUrl, apiKey));
  const server = createServer(toNodeListener(handler));
  const proxyUrl = await listen(proxy);
  const shop = await listen(server);
  const choice = JSON.stringify({ amount: '12.50', currency: 'SGD' });
  const json = { 'content-type': 'application/json' };
  const loops = { proxy: monitorEventLoopDelay({ resolution: 1 }), handler: monitorEventLoopDelay({ resolution: 1 }) };
  const measured = async (path: 'proxy' | 'handler', duration: number): Promise<Round> => {
    loops[path].enable();
    try {
      return await round(path === 'proxy' ? `${proxyUrl}/` : `${shop}/paykit/payment-requests`, choice, duration, json);
    } finally {
      loops[path].disable();
    }
  };
  try {
    const direct = await round(`${sandboxUrl}/v1/payment-requests`, form, seconds, apiHeaders);
    await round(`${proxyUrl}/`, choice, 5, json);
    await round(`${shop}/paykit/payment-requests`, choice, 5, json);
    const rounds: { proxy: Round[]; handler: Round[] } = { proxy: [], handler: [] };
    for (let index = 0; index < Math.max(1, Math.round(seconds)); index += 1) {
      const order = index % 2 === 0 ? (['proxy', 'handler'] as const) : (['handler', 'proxy'] as const);
      for (const path of order) rounds[path].push(await measured(path, 1));
    }
    return {
      sandboxWhere,
      sandbox: merge([direct]),
      proxy: merge(rounds.proxy, loops.proxy),
      handler: merge(rounds.handler, loops.handler),
    };
  } finally {
    for (const s of [server, proxy]) {
      s.closeAllConnections();
      s.close();
    }
    await inProcess?.close();
    own?.child.kill('SIGTERM');
  }
}
