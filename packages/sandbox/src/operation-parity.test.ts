/**
 * The sandbox's `/v1` routes and `@paykit/core`'s operation table describe the same API: every route the Hono
 * app serves under `/v1` is a row's path (or alias) with the row's method, and every row's path and alias is
 * served. A route without a row could not be reached by a Bearer token (fail closed) and no client calls it;
 * a row without a route is an operation the clients call and the emulator answers 404.
 */
import { OPERATION_IDS, operations } from '@paykit/core';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxApp } from './app.js';
import { startSandbox, type RunningSandbox } from './start.js';

/**
 * `/v1` routes that are not operations of the table, and why. The token endpoint (spec 4.8) authenticates by
 * client credentials in its body, not by an API key or a token, and the server's OAuth client finds it by
 * configuration or discovery rather than by the table.
 */
const NOT_OPERATIONS = new Set(['POST /v1/open/oauth/token']);

/** `METHOD /path/{param}` for each route the app serves under `/v1` (middleware, registered as ALL, left out). */
function servedRoutes(app: Hono): Set<string> {
  const served = new Set<string>();
  for (const route of app.routes) {
    if (route.method === 'ALL' || !route.path.startsWith('/v1/')) continue;
    served.add(`${route.method} ${route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}')}`);
  }
  return served;
}

/** `METHOD /path/{param}` for each row's path and alias. */
function tableRoutes(): Set<string> {
  const rows = new Set<string>();
  for (const id of OPERATION_IDS) {
    const row: { method: string; path: string; aliases?: readonly string[] } = operations[id];
    for (const path of [row.path, ...(row.aliases ?? [])]) rows.add(`${row.method} ${path}`);
  }
  return rows;
}

/** The routes without a row and the rows without a route, each sorted so a failure names them plainly. */
function differences(app: Hono) {
  const served = servedRoutes(app);
  const table = tableRoutes();
  return {
    routesWithoutRow: [...served].filter((r) => !table.has(r) && !NOT_OPERATIONS.has(r)).sort(),
    rowsWithoutRoute: [...table].filter((r) => !served.has(r)).sort(),
  };
}

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

describe('the sandbox serves exactly the operation table', () => {
  it('has a row for every /v1 route and a route for every row', () => {
    const app = createSandboxApp(sandbox.context);
    expect(differences(app)).toEqual({ routesWithoutRow: [], rowsWithoutRoute: [] });
    // The exclusions are routes the app really serves, so that none of them hides a renamed route.
    for (const route of NOT_OPERATIONS) expect(servedRoutes(app)).toContain(route);
  });

  it('names a route added without a row', () => {
    const app = createSandboxApp(sandbox.context);
    app.get('/v1/transfers/estimate', (c) => c.json({}));
    app.patch('/v1/payment-requests/:id', (c) => c.json({}));
    expect(differences(app).routesWithoutRow).toEqual([
      'GET /v1/transfers/estimate',
      'PATCH /v1/payment-requests/{id}',
    ]);
  });

  it('names a row the app does not serve, alias included', () => {
    const app = new Hono();
    app.post('/v1/refunds', (c) => c.json({}));
    const { rowsWithoutRoute } = differences(app);
    expect(rowsWithoutRoute).toContain('POST /v1/refund');
    expect(rowsWithoutRoute).toContain('GET /v1/info');
    expect(rowsWithoutRoute).not.toContain('POST /v1/refunds');
  });
});
