/**
 * In production, a handler on memory stores says once what is lost across instances; with shared stores, or
 * outside production, it says nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createPlatform } from '../platform/platform.js';
import { createPaykitHandler } from './create-handler.js';
import { MemoryEventStore } from './event-store.js';
import { MemoryIdempotencyStore } from './idempotency-store.js';
import type { Logger } from './logger.js';

const original = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = original;
});

function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, warn: (message) => lines.push(message), error: (message) => lines.push(message) };
}

const shop = { apiBaseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test_warning' };
const price = () => ({ amount: '1.00', currency: 'SGD' });

describe('the warning about memory stores in production', () => {
  it('says nothing outside production, nor in production with every store given', () => {
    process.env.NODE_ENV = 'development';
    const quiet = capture();
    createPaykitHandler({ api: shop, createPaymentRequest: price, logger: quiet });
    process.env.NODE_ENV = 'production';
    createPaykitHandler({
      api: shop,
      createPaymentRequest: price,
      logger: quiet,
      eventStore: new MemoryEventStore(),
      idempotencyStore: new MemoryIdempotencyStore(),
      // The other production warning (webhooks-salt-warning.test.ts) is not this test's.
      webhookSalt: 'salt-of-the-shop',
    });
    expect(quiet.lines).toEqual([]);
  });

  it('names what a platform on memory stores loses across instances, once per process', () => {
    process.env.NODE_ENV = 'production';
    const logger = capture();
    const platform = createPlatform({ apiBaseUrl: shop.apiBaseUrl, oauth: { clientId: 'app', clientSecret: 'cs' } });
    createPaykitHandler({ platform, createPaymentRequest: price, logger, webhookSalt: 'salt-of-the-platform' });
    createPaykitHandler({ platform, createPaymentRequest: price, logger, webhookSalt: 'salt-of-the-platform' });
    expect(logger.lines).toHaveLength(1);
    const [warning] = logger.lines;
    for (const lost of [
      'idempotency keys',
      'webhook claims',
      'merchant connections',
      'the token-endpoint budget',
      'createPostgresStores',
    ]) {
      expect(warning).toContain(lost);
    }
  });
});
