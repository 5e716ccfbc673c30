import type { ErrorCode } from '@paykit/core';
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaykitHandler, type PaykitHandler } from './create-handler.js';

/** Codes a route may answer with; anything else (and any 500) is a defect. */
const CODES: readonly ErrorCode[] = [
  'validation_failed',
  'invalid_json',
  'payload_too_large',
  'amount_mismatch',
  'not_found',
  'event_not_confirmed',
  'conflict',
];

let sandbox: RunningSandbox;
let handler: PaykitHandler;
const problems: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  handler = createPaykitHandler({
    api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
    createPaymentRequest: (choice) => ({
      amount: '12.50',
      currency: 'SGD',
      ...(choice.email ? { email: choice.email } : {}),
    }),
    onEvent: () => undefined,
    logger: { warn: (m) => void problems.push(m), error: (m) => void problems.push(m) },
  });
});
afterAll(() => sandbox.close());

const hostileValue = fc.oneof(
  fc.anything(),
  fc.constantFrom(NaN, -0, 1e308, '12.345', '1e3', '\u0000', '<script>', '٣', '💸'.repeat(100), {
    __proto__: { a: 1 },
  }),
);
const choiceLike = fc.record(
  {
    amount: fc.oneof(hostileValue, fc.constantFrom('12.50', '12.5', '0.01')),
    currency: fc.oneof(hostileValue, fc.constantFrom('SGD', 'sgd', 'USD')),
    email: fc.oneof(hostileValue, fc.emailAddress()),
    payment_methods: fc.oneof(hostileValue, fc.array(fc.string())),
    metadata: hostileValue,
    extra: hostileValue,
  },
  { requiredKeys: [] },
);

async function send(
  path: string,
  body: string,
): Promise<{ status: number; body: { code?: string; message?: string } }> {
  const response = await handler(
    new Request(`http://shop.test/paykit${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }),
  );
  return { status: response.status, body: (await response.json()) as { code?: string; message?: string } };
}

function expectCleanAnswer(answer: { status: number; body: { code?: string; message?: string } }): void {
  if (answer.status === 200 || answer.status === 201) return;
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(CODES).toContain(answer.body.code);
  expect(answer.body.message?.length).toBeGreaterThan(0);
}

describe('handler routes under random and hostile bodies', () => {
  it('POST /payment-requests never answers 500, and refuses with a stable code', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          choiceLike.map((v) => JSON.stringify(v)),
          fc.string(),
          fc.json(),
        ),
        async (body) => {
          expectCleanAnswer(await send('/payment-requests', body));
        },
      ),
      { numRuns: 300 },
    );
    expect(problems).toEqual([]);
  });

  it('POST /webhooks never answers 500, and never believes what it cannot confirm', async () => {
    const event = fc.record(
      {
        id: hostileValue,
        type: fc.oneof(hostileValue, fc.constantFrom('payment_request.completed', 'charge.failed')),
        business_id: hostileValue,
        data: fc.oneof(hostileValue, fc.record({ object: fc.record({ id: fc.oneof(fc.uuid(), fc.string()) }) })),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          event.map((v) => JSON.stringify(v)),
          fc.string(),
        ),
        async (body) => {
          const answer = await send('/webhooks', body);
          expect(answer.status).not.toBe(200);
          expectCleanAnswer(answer);
        },
      ),
      { numRuns: 300 },
    );
    expect(problems).toEqual([]);
  });
});
