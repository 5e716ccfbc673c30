import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));

describe('pnpm sandbox', () => {
  it('prints the address it listens on and serves the seeded business there', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0'], {
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

  it('refuses a port that is not a number', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', 'abc'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('--port must be a port number');
  });
});
