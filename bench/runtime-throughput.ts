/**
 * The handler's throughput and p99 on the host's Node, Node 24 and Bun (`pnpm bench --only runtimes`), each against
 * its own bare proxy in the same run: runtime-server.ts, bundled once, runs in each runtime (from the matrix's
 * cache, test/runtimes/runtimes.json); the sandbox runs in a process of its own on the host's Node, and the load
 * comes from this process. Per runtime: both paths warmed unmeasured, then one-second rounds taking turns, as
 * handler-throughput.ts does.
 */
import { installedBinary, runtimeEntry } from '../test/runtimes/installed.js';
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { merge, round, sandboxProcess, type LoadFigures, type Round } from './handler-throughput.js';

/** One runtime's two paths. */
export interface RuntimeThroughput {
  runtime: string;
  proxy: LoadFigures;
  handler: LoadFigures;
}

/** Measures each runtime for `seconds` rounds per path, after `warmSeconds` of unmeasured load per path. */
export async function measureRuntimes(seconds = 5, warmSeconds = 5): Promise<RuntimeThroughput[]> {
  const folder = await mkdtemp(join(tmpdir(), 'paykit-bench-runtimes-'));
  const sandbox = await sandboxProcess();
  try {
    const script = join(folder, 'runtime-server.mjs');
    await build({
      entryPoints: [fileURLToPath(new URL('runtime-server.ts', import.meta.url))],
      outfile: script,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'es2022',
      logLevel: 'silent',
    });
    const runtimes = [
      { runtime: `host Node ${process.versions.node}`, command: process.execPath },
      { runtime: `Node ${runtimeEntry('node24').version}`, command: installedBinary(runtimeEntry('node24')) },
      { runtime: `Bun ${runtimeEntry('bun').version}`, command: installedBinary(runtimeEntry('bun')) },
    ];
    const results: RuntimeThroughput[] = [];
    for (const { runtime, command } of runtimes) {
      results.push({ runtime, ...(await measureOne(command, script, sandbox.url, seconds, warmSeconds)) });
    }
    return results;
  } finally {
    sandbox.child.kill('SIGTERM');
    await rm(folder, { recursive: true, force: true });
  }
}

async function measureOne(
  command: string,
  script: string,
  sandboxUrl: string,
  seconds: number,
  warmSeconds: number,
): Promise<{ proxy: LoadFigures; handler: LoadFigures }> {
  // Without the loaders of this process (tsx): each runtime runs the bundle as it is.
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const child = spawn(command, [script, sandboxUrl, 'sandbox_api_key_demo_store'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  try {
    const urls = await new Promise<{ proxy: string; handler: string }>((resolve, reject) => {
      let seen = '';
      child.stdout.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const proxy = /^proxy (\S+)$/m.exec(seen)?.[1];
        const handler = /^handler (\S+)$/m.exec(seen)?.[1];
        if (proxy && handler) resolve({ proxy, handler });
      });
      child.once('exit', (code) => reject(new Error(`${command} ended (${code}) before listening: ${seen}`)));
    });
    const body = JSON.stringify({ amount: '12.50', currency: 'SGD' });
    const json = { 'content-type': 'application/json' };
    const targets = { proxy: `${urls.proxy}/`, handler: `${urls.handler}/paykit/payment-requests` };
    await round(targets.proxy, body, warmSeconds, json);
    await round(targets.handler, body, warmSeconds, json);
    const rounds: { proxy: Round[]; handler: Round[] } = { proxy: [], handler: [] };
    for (let index = 0; index < Math.max(1, Math.round(seconds)); index += 1) {
      const order = index % 2 === 0 ? (['proxy', 'handler'] as const) : (['handler', 'proxy'] as const);
      for (const path of order) rounds[path].push(await round(targets[path], body, 1, json));
    }
    return { proxy: merge(rounds.proxy), handler: merge(rounds.handler) };
  } finally {
    child.kill('SIGTERM');
  }
}
