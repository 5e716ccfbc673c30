/**
 * `paykit-sandbox trigger`, spawned as a process against a started sandbox: it sends the event and prints what
 * went where, `--print-salt` prints only the salt, and every problem is one line with exit status 2 (a wrong
 * argument) or 1 (a sandbox that refused or is not there).
 */
import { nodeEntry } from '@paykit/test-support/node-entry';
import { startHttpRecorder, type HttpRecorder } from '@paykit/test-support/http-recorder';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../index.js';

const cli = await nodeEntry(new URL('../cli.ts', import.meta.url));

let sandbox: RunningSandbox;
let receiver: HttpRecorder;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [] } });
  receiver = await startHttpRecorder();
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

/** Runs `paykit-sandbox trigger …args` against the started sandbox (unless `--sandbox` is given). */
async function trigger(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const withSandbox = args.includes('--sandbox') ? args : [...args, '--sandbox', sandbox.url];
  const child = spawn(process.execPath, [cli, 'trigger', ...withSandbox], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, out, err };
}

describe('paykit-sandbox trigger', () => {
  it('sends the event about a fresh object to --to and prints each delivery', async () => {
    const { code, out, err } = await trigger('payment_request.completed', '--to', `${receiver.url}/hooks`);
    expect([code, err]).toEqual([0, '']);
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(
      /^payment_request\.completed about payment request [0-9a-f-]{36} \(made for this event\)$/,
    );
    expect(lines.slice(1)).toEqual([
      `  notification -> ${receiver.url}/hooks: delivered (200)`,
      `  event -> ${receiver.url}/hooks: delivered (200)`,
    ]);
    expect(receiver.requests).toHaveLength(2);
  });

  it('prints only the salt with --print-salt', async () => {
    const { code, out } = await trigger('--print-salt');
    expect([code, out]).toEqual([0, `${sandbox.seed.salt}\n`]);
  });

  it('exits 2 with one line for a wrong argument, naming the events it can send', async () => {
    const unknown = await trigger('charge.refunded', '--to', receiver.url);
    expect(unknown.code).toBe(2);
    expect(unknown.err.trim().split('\n')).toHaveLength(1);
    expect(unknown.err).toContain('"charge.refunded" is not an event the service sends: one of charge.created');
    const both = await trigger('charge.created', '--print-salt');
    expect([both.code, both.err]).toEqual([
      2,
      '--print-salt prints the salt and sends nothing: give it alone, with --business\n',
    ]);
    const none = await trigger();
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/^name the event to send\n/);
  });

  it('exits 1 with the sandbox refusal, or when no sandbox answers', async () => {
    const foreign = await trigger('charge.created', '--object', 'nope', '--to', receiver.url);
    expect(foreign.code).toBe(1);
    expect(foreign.err).toBe(`the sandbox refused (404): Business ${sandbox.seed.businessId} has no charge nope\n`);
    const missing = await trigger('--print-salt', '--business', 'nobody');
    expect([missing.code, missing.err]).toEqual([1, 'the sandbox refused (404): No business nobody\n']);
    const gone = await trigger('charge.created', '--sandbox', 'http://127.0.0.1:9');
    expect(gone.code).toBe(1);
    expect(gone.err).toMatch(/^no sandbox answers at http:\/\/127\.0\.0\.1:9/);
  });
});
