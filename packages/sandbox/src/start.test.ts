/**
 * The sandbox runs inside other code's process (the demo beside its shop, `startSandbox` in a test file): starting
 * it must leave that process as it was. @hono/node-server, which serves it, replaces the global Request and
 * Response with classes of its own unless told not to, and the shop's code beside it then met those.
 */
import { expect, it } from 'vitest';
import { startSandbox } from './start.js';

it("leaves the process's global Request and Response the runtime's own", async () => {
  const { Request: before, Response: answerBefore } = globalThis;
  const sandbox = await startSandbox({ port: 0 });
  try {
    // A request served: the library swaps the globals when it serves, not only when it starts.
    expect((await fetch(`${sandbox.url}/v1/info`)).status).toBe(401);
    expect(globalThis.Request).toBe(before);
    expect(globalThis.Response).toBe(answerBefore);
  } finally {
    await sandbox.close();
  }
});
