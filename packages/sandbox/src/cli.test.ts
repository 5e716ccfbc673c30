import { nodeEntry } from '@paykit/test-support/node-entry';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const cli = await nodeEntry(new URL('./cli.ts', import.meta.url));

describe('pnpm sandbox', () => {
  it('prints the address it listens on and serves the seeded business there', async () => {
    const child = spawn(process.execPath, [cli, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0] ?? '');
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      const match = /^paykit sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      expect(match).not.toBeNull();
      const response = await fetch(`${match?.[1]}/v1/payment-requests`, {
        headers: { 'x-business-api-key': 'sandbox_api_key_demo_store' },
      });
      expect(response.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('prints its options and exits 0 for --help and -h, starting nothing', async () => {
    for (const flag of ['--help', '-h']) {
      const child = spawn(process.execPath, [cli, flag], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(0);
      expect(out).toMatch(/^usage: paykit-sandbox \[options\]/);
      expect(out).toMatch(/--seed platform/);
      expect(out).not.toMatch(/listening on/);
    }
  });

  it('refuses a port that is not a number', async () => {
    const child = spawn(process.execPath, [cli, '--port', 'abc'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('--port must be a port number');
  });

  it('--data keeps the state across a stop (SIGTERM) and a start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paykit-sandbox-cli-'));
    const data = join(dir, 'nested', 'state.json');
    try {
      const first = await run(['--port', '0', '--data', data]);
      const created = await fetch(`${first.url}/_sandbox/businesses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Survives Restarts', country: 'SG', currency: 'SGD' }),
      });
      const { api_key: apiKey } = (await created.json()) as { api_key: string };
      expect(await first.stop()).toBe(0);
      const second = await run(['--port', '0', '--data', data]);
      const info = await fetch(`${second.url}/v1/info`, { headers: { 'x-business-api-key': apiKey } });
      expect(((await info.json()) as { name: string }).name).toBe('Survives Restarts');
      expect(await second.stop()).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('--data with a file it cannot use: exits 1 and says what to do, without a stack trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paykit-sandbox-cli-'));
    const data = join(dir, 'state.json');
    await writeFile(data, 'not json');
    try {
      const child = spawn(process.execPath, [cli, '--port', '0', '--data', data], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(err).toContain(`The sandbox data file ${data} is not valid JSON`);
      expect(err).toContain('Delete it');
      expect(err).not.toMatch(/^\s+at /m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** Starts the command line; resolves once it printed its address. */
async function run(args: string[]): Promise<{ url: string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`exited with ${code}`)));
  });
  return {
    url,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
