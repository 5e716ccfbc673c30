/**
 * The one place where failures become answers: a store that is down stays the shop's 503 wherever it is met,
 * and an `internal_error`'s words reach the log, never the browser.
 */
import { PaykitError } from '@paykit/core';
import { describe, expect, it } from 'vitest';
import type { ConnectionStore } from '../oauth/connection-store.js';
import { createPlatform } from '../platform/platform.js';
import { createPaykitHandler } from './create-handler.js';
import { asUpstreamFailure, errorResponse } from './error-response.js';
import type { Logger } from './logger.js';
import { webResponse } from './web-exchange.js';

function capture(): Logger & { lines: unknown[][] } {
  const lines: unknown[][] = [];
  return { lines, warn: (...args) => lines.push(args), error: (...args) => lines.push(args) };
}

const down = () =>
  new PaykitError(
    'store_unavailable',
    'The shop is busy right now. Nothing was charged: please try again in a moment.',
    {
      retryAfterSeconds: 1,
    },
  );

describe('errorResponse', () => {
  it('answers an internal_error with the generic 500 and keeps its words for the log', async () => {
    const logger = capture();
    const secretish = new PaykitError('internal_error', 'A stored connection could not be decrypted: wrong key');
    const answer = webResponse(errorResponse(secretish, logger));
    expect(answer.status).toBe(500);
    expect(await answer.json()).toEqual({
      message: 'Something went wrong on the shop’s server. Please try again.',
      code: 'internal_error',
    });
    expect(logger.lines).toEqual([['paykit: unexpected error in the handler', secretish]]);
  });

  it('answers store_unavailable with 503 and Retry-After', async () => {
    const answer = webResponse(errorResponse(down(), capture()));
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(await answer.json()).toMatchObject({ code: 'store_unavailable' });
  });

  it('does not relabel store_unavailable as the API failing', () => {
    const error = down();
    expect(asUpstreamFailure(error, 'The payment service could not start the checkout.')).toBe(error);
  });
});

describe('a platform whose connection store is down', () => {
  it('answers the pay button 503 store_unavailable (not 502), with Retry-After', async () => {
    // Up when the merchant is looked up, down a moment later when the API call reads its credentials.
    let reads = 0;
    const store: ConnectionStore = {
      get: async () => {
        reads += 1;
        if (reads === 1) return { kind: 'api_key', apiKey: 'sk_merchant_key' };
        throw down();
      },
      set: () => Promise.reject(down()),
      delete: () => Promise.reject(down()),
    };
    const platform = createPlatform({ apiBaseUrl: 'http://127.0.0.1:9', store });
    const handler = createPaykitHandler({
      platform,
      createPaymentRequest: () => ({ amount: '1.00', currency: 'SGD' }),
      logger: capture(),
    });
    const answer = await handler(
      new Request('https://platform.example/paykit/payment-requests', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ merchant: '00000000-0000-4000-8000-000000000001', reference: 'x' }),
      }),
    );
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(await answer.json()).toMatchObject({ code: 'store_unavailable' });
  });
});
