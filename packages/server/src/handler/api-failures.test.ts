/**
 * Failures that are the shop's configuration, told apart from the rest (issue 26): the Payments API out of reach
 * (502 `api_unreachable`) and its refusal of the API key (502 `api_key_refused`), each with one log line naming
 * the setting and never the key; `handler.check()` finding both, and a wrong base URL, before any shopper; and a
 * missing key at start as one line pointing at the caller. Against the real sandbox and a real closed port.
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { freePort, listenOnLoopback } from '@paykit/test-support/loopback';
import { createServer } from 'node:http';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requiredEnv } from '../required-env.js';
import { createPaykitHandler } from './create-handler.js';
import type { PaykitHandlerOptions } from './options.js';

let sandbox: RunningSandbox;
/** A port that was free a moment ago and that nothing listens on: connection refused. */
let closedOrigin: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  closedOrigin = `http://127.0.0.1:${await freePort()}`;
});
afterAll(async () => sandbox.close());

function shop(api: { apiBaseUrl: string; apiKey: string }, extra: Partial<PaykitHandlerOptions> = {}) {
  const lines: string[] = [];
  const handler = createPaykitHandler({
    api: { ...api, retry: { attempts: 1 } },
    createPaymentRequest: () => ({ amount: '12.50', currency: 'SGD' }),
    returnUrl: 'http://127.0.0.1:3000/return',
    logger: {
      warn: (m, d) => void lines.push(d === undefined ? m : `${m} ${String(d)}`),
      error: (m, d) => void lines.push(d === undefined ? m : `${m} ${String(d)}`),
    },
    ...extra,
  });
  return { handler, lines };
}

const pay = (handler: (r: Request) => Promise<Response>) =>
  handler(
    new Request('http://127.0.0.1:3000/paykit/payment-requests', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
      body: JSON.stringify({ reference: 'sku-mug' }),
    }),
  );

describe('the handler tells the API out of reach and a refused key from other failures', () => {
  it('answers 502 api_unreachable, in the shop’s words, and logs one line with the origin and apiBaseUrl', async () => {
    const { handler, lines } = shop({ apiBaseUrl: closedOrigin, apiKey: sandbox.seed.apiKey });
    const answer = await pay(handler);
    expect(answer.status).toBe(502);
    const body = (await answer.json()) as { code: string; message: string };
    expect(body.code).toBe('api_unreachable');
    expect(body.message).not.toContain(closedOrigin);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
    expect(lines[0]).toContain(`the Payments API could not be reached at ${closedOrigin}`);
    expect(lines[0]).toContain('ECONNREFUSED');
    expect(lines[0]).toContain('Check apiBaseUrl');
  });

  it('answers 502 api_key_refused and logs one line naming apiKey, never the key', async () => {
    const key = 'sandbox_api_key_that_nobody_issued';
    const { handler, lines } = shop({ apiBaseUrl: sandbox.url, apiKey: key });
    const answer = await pay(handler);
    expect(answer.status).toBe(502);
    expect(((await answer.json()) as { code: string }).code).toBe('api_key_refused');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`the Payments API at ${new URL(sandbox.url).origin} refused the API key`);
    expect(lines[0]).toContain('Check apiKey');
    expect(lines[0]).not.toContain(key);
  });

  it('keeps other API failures as they were: a 503 of the API stays upstream_error', async () => {
    await fetch(`${sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/v1/payment-requests', method: 'POST', kind: 'status', status: 503, times: 1 }),
    });
    const { handler, lines } = shop({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey });
    const answer = await pay(handler);
    expect(answer.status).toBe(502);
    expect(((await answer.json()) as { code: string }).code).toBe('upstream_error');
    expect(lines[0]).toMatch(/^paykit: upstream_error: /);
  });
});

describe('handler.check()', () => {
  it('resolves with the business when the API accepts the key', async () => {
    const { handler } = shop({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey });
    const report = await handler.check();
    expect(report.business.name).toBe('Demo Store');
    expect(report.business.apiOrigin).toBe(new URL(sandbox.url).origin);
  });

  it('fetches returnUrl once: a 404 or no answer is a warning in the report and the log, a page is none', async () => {
    const pages = createServer((req, res) => {
      res.writeHead(req.url === '/thanks' ? 200 : 404, { 'content-type': 'text/html' });
      res.end(req.url === '/thanks' ? '<paykit-return></paykit-return>' : 'Cannot GET');
    });
    const site = await listenOnLoopback(pages);
    try {
      const served = shop({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey }, { returnUrl: `${site}/thanks` });
      expect(await served.handler.check()).toMatchObject({ business: { name: 'Demo Store' }, warnings: [] });
      expect(served.lines).toEqual([]);

      const missing = shop(
        { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
        { returnUrl: `${site}/thank-you` },
      );
      const report = await missing.handler.check();
      expect(report.business.name).toBe('Demo Store');
      expect(report.warnings).toEqual([
        `paykit: returnUrl ${site}/thank-you answered 404: shoppers are sent there after paying. Serve the page ` +
          'with <paykit-return> at that path, or set returnUrl to the page that has it.',
      ]);
      expect(missing.lines).toEqual(report.warnings);

      const down = shop(
        { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
        { returnUrl: `${closedOrigin}/thanks` },
      );
      expect((await down.handler.check()).warnings).toEqual([
        expect.stringMatching(
          new RegExp(
            `^paykit: returnUrl ${closedOrigin}/thanks could not be fetched \\(ECONNREFUSED\\).*after it listens\\.$`,
          ),
        ),
      ]);
    } finally {
      pages.closeAllConnections();
      pages.close();
    }
  });

  it('rejects with api_key_refused naming apiKey (not the key), api_unreachable naming the origin', async () => {
    const refused = shop({ apiBaseUrl: sandbox.url, apiKey: 'sandbox_api_key_that_nobody_issued' }).handler;
    await expect(refused.check()).rejects.toMatchObject({ code: 'api_key_refused', message: /Check apiKey/ });
    await expect(refused.check()).rejects.toSatisfy((e: Error) => !e.message.includes('nobody_issued'));
    const unreachable = shop({ apiBaseUrl: closedOrigin, apiKey: sandbox.seed.apiKey }).handler;
    await expect(unreachable.check()).rejects.toMatchObject({
      code: 'api_unreachable',
      message: new RegExp(`could not be reached at ${closedOrigin}.*Check apiBaseUrl`),
    });
  });

  it('rejects a base URL where something else answers with upstream_invalid_response naming apiBaseUrl', async () => {
    const wrong = shop({ apiBaseUrl: `${sandbox.url}/v1`, apiKey: sandbox.seed.apiKey }).handler;
    await expect(wrong.check()).rejects.toMatchObject({
      code: 'upstream_invalid_response',
      message: /does not answer as the Payments API.*Check apiBaseUrl/,
    });
  });
});

describe('a missing key at start', () => {
  it('is one line naming apiKey and the variable, then the caller’s line; no frame of paykit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paykit-missing-key-'));
    try {
      const file = join(dir, 'server.ts');
      const handlerModule = new URL('./create-handler.ts', import.meta.url).pathname;
      writeFileSync(
        file,
        `import { createPaykitHandler } from ${JSON.stringify(handlerModule)};\n` +
          'createPaykitHandler({\n' +
          "  api: { apiBaseUrl: 'http://127.0.0.1:4010', apiKey: process.env.PAYKIT_TEST_UNSET_KEY },\n" +
          "  createPaymentRequest: () => ({ amount: '1.00', currency: 'SGD' }),\n" +
          '} as never);\n',
      );
      const run = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', env: process.env });
      expect(run.status).toBe(1);
      const stack = run.stderr.split('\n').filter((line) => /^\s+at /.test(line));
      expect(run.stderr).toMatch(/PaykitError: "apiKey" is missing: .*process\.env\.PAYMENTS_API_KEY/);
      expect(stack).toHaveLength(1);
      expect(stack[0]).toContain('server.ts');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('read with requiredEnv, is one line naming the variable, from the caller’s line; a set one is its value', () => {
    process.env.PAYKIT_TEST_SET_KEY = 'sandbox_api_key_demo_store';
    try {
      expect(requiredEnv('PAYKIT_TEST_SET_KEY')).toBe('sandbox_api_key_demo_store');
    } finally {
      delete process.env.PAYKIT_TEST_SET_KEY;
    }
    let thrown: unknown;
    try {
      requiredEnv('PAYKIT_TEST_UNSET_KEY', 'the dashboard shows it');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      code: 'validation_failed',
      message:
        'The environment variable PAYKIT_TEST_UNSET_KEY is not set: set it where this server starts (the dashboard shows it)',
    });
    const frames = String((thrown as Error).stack)
      .split('\n')
      .filter((line) => /^\s+at /.test(line));
    expect(frames).toHaveLength(1);
    expect(frames[0]).toContain('api-failures.test.ts');
  });
});
