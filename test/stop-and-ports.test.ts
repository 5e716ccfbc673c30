/**
 * Stopping and ports (issue 26, item 4), as a developer meets them: `npm run demo` and `npm run sandbox` stopped by
 * a signal sent to the outermost process (npm, what a terminal multiplexer, an IDE's stop button or a process
 * manager signals) leave no process and no listener behind, and so does npm killed outright (SIGKILL: nothing
 * passes a signal on; the server sees its parent gone). A port in use is one line naming the port, the likely
 * cause and the variable or flag that changes it. Real processes, real ports; each command runs in its own
 * process group, so that the test can tell whether anything of it is left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../', import.meta.url).pathname;

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'paykit-stop-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

/** `npm run <script>` in its own process group (npm is the group's leader: its pid is the group's id). */
function npmRun(script: string, args: string[], env: Record<string, string> = {}): Started {
  const child = spawn('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, exited };
}

async function waitFor<T>(read: () => T | undefined, what: string, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** True while any process of the group is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether something accepts connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

const ports = (text: string) => [...text.matchAll(/http:\/\/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1]));

/** Sends `signal` to the outermost process; then nothing of the command may be left, on no port. */
async function stopsCleanly(started: Started, signal: NodeJS.Signals, used: number[]): Promise<void> {
  const pgid = started.child.pid!;
  try {
    for (const port of used) expect(await listening(port), `port ${port} before`).toBe(true);
    process.kill(pgid, signal);
    await waitFor(() => (groupAlive(pgid) ? undefined : true), `every process to exit after ${signal}`, 10_000);
    for (const port of used) expect(await listening(port), `port ${port} after ${signal}`).toBe(false);
  } finally {
    if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
  }
}

describe('npm run sandbox', () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGKILL'] as const) {
    it(`stops on ${signal} sent to npm and leaves no listener`, async () => {
      const started = npmRun('sandbox', ['--port', '0']);
      const url = await waitFor(() => /listening on (http:\S+)/.exec(started.out())?.[1], 'the sandbox', 20_000);
      await stopsCleanly(started, signal, ports(url));
    });
  }

  it('a port in use is one line naming the port, the likely cause and --port', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const started = npmRun('sandbox', ['--port', String(port)]);
      expect(await started.exited).toBe(1);
      const lines = started.out().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^paykit: port ${port} .* is in use, most likely by a sandbox or demo`));
      expect(lines[0]).toContain('--port');
    } finally {
      holder.close();
    }
  });
});

describe('npm run demo', () => {
  // The command as the README gives it (bootstrap, then the servers), the builds skipped when already made
  // (scripts/demo-build.sh): a build empties packages/elements/dist, which other tests read meanwhile.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops on ${signal} sent to npm and leaves neither of its two listeners`, { timeout: 240_000 }, async () => {
      const started = npmRun('demo', [], {
        PORT: '0',
        SANDBOX_PORT: '0',
        PAYKIT_DEMO_DATA: dataDir,
        PAYKIT_DEMO_PREBUILT: '1',
      });
      await waitFor(() => (/demo shop: open/.test(started.out()) ? true : undefined), 'the demo', 200_000);
      const used = [...new Set(ports(started.out()))];
      expect(used).toHaveLength(2);
      await stopsCleanly(started, signal, used);
    });
  }

  it('a port in use is one line naming the port and PORT or SANDBOX_PORT', { timeout: 60_000 }, async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      // The server alone (what `npm run demo` execs once built), to keep the builds out of this test.
      const child = spawn(process.execPath, ['--import', 'tsx', 'demo/server.ts'], {
        cwd: ROOT,
        env: { ...process.env, PORT: '0', SANDBOX_PORT: String(port), PAYKIT_DEMO_DATA: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(1);
      const lines = err.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^paykit: port ${port} .* is in use.*SANDBOX_PORT`));
    } finally {
      holder.close();
    }
  });
});
