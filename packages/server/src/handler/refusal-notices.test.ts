/**
 * The server speaks at the first refusal of each kind (issue 35 item 1): a handler served over HTTP on 127.0.0.1,
 * its logger read back. A page on an origin the options do not allow, webhooks signed with another salt (the
 * sandbox's real deliveries and their retries), a missing signature, an API out of reach: one warning each,
 * naming the option and the value to set, never a secret; the caller's answer unchanged; repeats counted, not
 * written, within the hour. The hour itself is tested on the notices alone, with their clock.
 */
import { PaykitError } from '@paykit/core';
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { freePort, listenOnLoopback } from '@paykit/test-support/loopback';
import { call } from '@paykit/test-support/sandbox-calls';
import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toNodeListener } from '../adapters/node.js';
import { createPaykitHandler } from './create-handler.js';
import type { PaykitHandlerOptions } from './options.js';
import { originPolicy } from './origin-guard.js';
import { refusalNotices } from './refusal-notices.js';
import { webExchange } from './web-exchange.js';

const WRONG_SALT = 'salt-of-another-business-0123456789';

let sandbox: RunningSandbox;
const servers: Server[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [20, 20], timeoutMs: 2_000 } });
});
afterEach(() => sandbox.context.webhooks.idle());
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await sandbox.close();
});

/** A shop's handler on its own port, and what its logger was told. */
async function shop(options: Partial<PaykitHandlerOptions> = {}) {
  const lines: string[] = [];
  const write = (m: string, d?: unknown) => void lines.push(d === undefined ? m : `${m} ${String(d)}`);
  const server = createServer(
    toNodeListener(
      createPaykitHandler({
        api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey, retry: { attempts: 1 } },
        createPaymentRequest: () => ({ amount: '12.50', currency: 'SGD' }),
        returnUrl: 'https://shop.example/thanks',
        publicOrigin: 'https://shop.example',
        logger: { warn: write, error: write },
        ...options,
      }),
    ),
  );
  servers.push(server);
  const url = await listenOnLoopback(server);
  return { url, lines };
}

/** The pay button's click, from a page on `origin`. */
async function click(url: string, headers: Record<string, string>) {
  const answer = await fetch(`${url}/paykit/payment-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ reference: 'sku-mug' }),
  });
  return { status: answer.status, body: (await answer.json()) as { code: string; message: string } };
}

describe('a page on an origin the options do not allow', () => {
  it('is refused as before, and the log says once which origin, what publicOrigin is and what to set', async () => {
    // The Next.js section's mistake: publicOrigin copied as https://shop.example, the shop served elsewhere.
    const { url, lines } = await shop();
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await click(url, { origin: url }));
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe('cross_site_request');
      // The answer's words are the origin guard's, as before: nothing of the log's line is added to it.
      expect(answer.body.message).toBe(
        `Requests from ${url} are not allowed. If this is the shop's own site, set "publicOrigin" to it; ` +
          'if it is another site of yours, add it to "allowedOrigins".',
      );
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^paykit: cross_site_request: refused a request from /);
    expect(lines[0]).toContain(`from ${url} to /paykit/payment-requests (403)`);
    expect(lines[0]).toContain('publicOrigin is https://shop.example and allowedOrigins is empty');
    expect(lines[0]).toContain(`set publicOrigin: '${url}'`);
    expect(lines[0]).not.toContain('\n');

    // Another origin is another line; the first one stays quiet.
    await click(url, { origin: 'https://partner.example' });
    await click(url, { origin: url });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("add 'https://partner.example' to allowedOrigins");
  });

  it('says when publicOrigin is not set and allowedOrigins holds others', async () => {
    const { url, lines } = await shop({ publicOrigin: undefined, allowedOrigins: ['https://partner.example'] });
    expect((await click(url, { origin: 'https://blog.example' })).status).toBe(403);
    expect(lines).toEqual([
      expect.stringContaining('publicOrigin is not set and allowedOrigins is https://partner.example'),
    ]);
  });

  it("writes nothing for a request without Origin refused as another site's: the caller's fault, not the shop's", async () => {
    const { url, lines } = await shop();
    const answer = await click(url, { 'sec-fetch-site': 'cross-site' });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('cross_site_request');
    expect(lines).toEqual([]);
  });

  it('writes nothing for an allowed page', async () => {
    const { url, lines } = await shop({ publicOrigin: undefined, allowedOrigins: ['https://shop.example'] });
    expect((await click(url, { origin: 'https://shop.example' })).status).toBe(201);
    expect(lines).toEqual([]);
  });
});

describe('webhooks signed with another salt than webhookSalt', () => {
  it("refuses the service's delivery and its retries, and says once to copy the business's salt, never a salt", async () => {
    const { url, lines } = await shop({ webhookSalt: WRONG_SALT });
    const created = await call(sandbox, 'POST', '/v1/payment-requests', {
      json: { amount: '12.50', currency: 'SGD', webhook: `${url}/paykit/webhooks` },
    });
    expect(created.status).toBe(200);
    const paid = await call(sandbox, 'POST', `/_sandbox/payment-requests/${created.body.id}/pay`, {
      json: { outcome: 'succeeded' },
    });
    expect(paid.status).toBe(200);
    await expect
      .poll(() => sandbox.context.webhooks.deliveries.filter((d) => d.url.startsWith(url)).map((d) => d.status))
      .toEqual(['failed']);
    const [delivery] = sandbox.context.webhooks.deliveries.filter((d) => d.url.startsWith(url));
    // The first try and each retry were refused: 401 every time, one line.
    expect(delivery!.attempts).toBe(3);
    expect(delivery!.history.map((attempt) => attempt.status)).toEqual([401, 401, 401]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^paykit: signature_mismatch: refused a webhook to \/paykit\/webhooks \(401\)/);
    expect(lines[0]).toContain('webhookSalt is not the salt of the business that sent it');
    expect(lines[0]).toContain('Settings > Payment Gateway > API Keys');
    expect(lines[0]).toContain('/dashboard/api-keys');
    expect(lines[0]).not.toContain(WRONG_SALT);
    expect(lines[0]).not.toContain(sandbox.seed.salt);
  });

  it('a delivery without a signature while a salt is set is its own line', async () => {
    const { url, lines } = await shop({ webhookSalt: WRONG_SALT });
    const post = () =>
      fetch(`${url}/paykit/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'payment_id=p1&payment_request_id=r1&reference_number=&phone=&amount=12.50&currency=SGD&status=completed',
      });
    expect((await post()).status).toBe(401);
    expect((await post()).status).toBe(401);
    expect(lines).toEqual([
      expect.stringMatching(/^paykit: signature_missing: .*no signature while webhookSalt is set/),
    ]);
  });
});

describe('the Payments API out of reach', () => {
  it('three clicks, one line naming apiBaseUrl', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const { url, lines } = await shop({
      api: { apiBaseUrl: closed, apiKey: sandbox.seed.apiKey, retry: { attempts: 1 } },
      publicOrigin: undefined,
    });
    for (let i = 0; i < 3; i += 1) expect((await click(url, { origin: url })).body.code).toBe('api_unreachable');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`the Payments API could not be reached at ${closed}`);
    expect(lines[0]).not.toContain(sandbox.seed.apiKey);
  });
});

describe('the hour (the notices alone, with their clock)', () => {
  const refusal = () => new PaykitError('cross_site_request', 'refused', { status: 403 });
  const request = (origin: string) =>
    webExchange(new Request('http://127.0.0.1:3000/paykit/payment-requests', { method: 'POST', headers: { origin } }));

  it('writes the same refusal again after an hour, with how many were not written', () => {
    let now = Date.parse('2026-11-29T08:00:00Z');
    const lines: string[] = [];
    const notices = refusalNotices(
      { warn: (m) => void lines.push(m), error: (m) => void lines.push(m) },
      originPolicy('https://shop.example'),
      { now: () => now },
    );
    notices.refused(refusal(), request('https://a.example'));
    now += 60_000;
    notices.refused(refusal(), request('https://a.example'));
    notices.refused(refusal(), request('https://a.example'));
    expect(lines).toHaveLength(1);
    now += 59 * 60_000;
    notices.refused(refusal(), request('https://a.example'));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/\(2 more refused the same way since 2026-11-29T08:00:00\.000Z, not written\)$/);
    // Not a caller's own mistake, not a refusal at all: nothing.
    notices.refused(new PaykitError('validation_failed', 'bad'), request('https://a.example'));
    notices.refused(new Error('a bug'), request('https://a.example'));
    expect(lines).toHaveLength(2);
  });

  it('remembers 20 origins an hour; the rest share one line, so that forged origins cannot flood the log', () => {
    const lines: string[] = [];
    const notices = refusalNotices(
      { warn: (m) => void lines.push(m), error: (m) => void lines.push(m) },
      originPolicy('https://shop.example'),
    );
    for (let i = 0; i < 500; i += 1) notices.refused(refusal(), request(`https://forged-${i}.example`));
    expect(lines).toHaveLength(21);
    expect(lines[20]).toMatch(/^paykit: cross_site_request: refused for more than 20 different reasons or origins/);
    expect(lines[20]).toContain('https://forged-20.example');
  });
});
