/**
 * The `/v1` mount: every row of core's operation table and each of its aliases is served over HTTP by its
 * handler (an unknown id answers the handler's 404, never the app's "No route"), and the handler map's type
 * refuses a missing or an extra operation. This replaces the route parity test: no code writes a `/v1` path any
 * more, so a route without a row cannot be added by accident, and a row without a handler does not compile.
 */
import { OPERATION_IDS, operations } from '@paykit/core';
import { call } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../start.js';
import { chargeHandlers } from '../routes/charges.js';
import type { HandlersOf, OperationHandler, OperationHandlers } from '../operation-call.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

/**
 * Compile-time checks, never run: `tsc` reads the tests too (`pnpm typecheck`), and an `@ts-expect-error` that
 * no longer finds its error fails it.
 */
export function handlerTypeChecks(all: OperationHandlers): unknown[] {
  const { 'charges.get': _dropped, ...withoutOne } = all;
  // @ts-expect-error: a map without `charges.get` is not a handler for every operation
  const missing: OperationHandlers = withoutOne;
  const extra: OperationHandlers = {
    ...all,
    // @ts-expect-error: `charges.delete` is no operation of the table
    'charges.delete': () => null,
  };
  const family: HandlersOf<'charges'> = {
    ...chargeHandlers(sandbox.context),
    // @ts-expect-error: a family holds its own operations only
    'refunds.get': () => null,
  };
  // @ts-expect-error: an operation without a body gives its handler none to read
  const noBody: OperationHandler<'charges.get'> = ({ body }) => body();
  // @ts-expect-error: the path of `charges.get` names `id`, not `chargeId`
  const noSuchParam: OperationHandler<'charges.get'> = ({ params }) => params.chargeId;
  // @ts-expect-error: a list answers records with an `id` (or ListItems), not one object
  const notAList: OperationHandler<'charges.list'> = () => ({ data: [] });
  return [missing, extra, family, noBody, noSuchParam, notAList];
}

describe('the /v1 mount', () => {
  it('serves every row and alias of the table by its handler', async () => {
    const unserved: string[] = [];
    for (const id of OPERATION_IDS) {
      const row: { method: string; path: string; aliases?: readonly string[] } = operations[id];
      for (const template of [row.path, ...(row.aliases ?? [])]) {
        const path = template.replace(/\{segment\}/, 'no-such-segment').replace(/\{\w+\}/g, 'no-such-id');
        const answer = await call(
          sandbox,
          row.method,
          path,
          row.method === 'GET' || row.method === 'DELETE' ? {} : { json: {} },
        );
        // The app's own 404 names the route it has not got; a handler's names what it did not find.
        if (answer.status === 404 && String(answer.body?.message).startsWith('No route'))
          unserved.push(`${row.method} ${template}`);
      }
    }
    expect(unserved).toEqual([]);
  });

  it('answers a path outside the table with the app 404', async () => {
    const answer = await call(sandbox, 'PATCH', '/v1/payment-requests/no-such-id', { json: {} });
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe('No route for PATCH /v1/payment-requests/no-such-id');
  });
});
