/**
 * In production, a handler without `webhookSalt` says once that signatures are not checked and where the salt is
 * found; with a salt, or outside production, it says nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
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

const base = {
  api: { apiBaseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test_salt_warning' },
  createPaymentRequest: () => ({ amount: '1.00', currency: 'SGD' }),
  // Shared stores, so that the only warning left to give is this one.
  eventStore: new MemoryEventStore(),
  idempotencyStore: new MemoryIdempotencyStore(),
};

describe('the warning about unsigned webhooks in production', () => {
  it('says nothing outside production, nor in production with a salt', () => {
    const quiet = capture();
    process.env.NODE_ENV = 'development';
    createPaykitHandler({ ...base, logger: quiet });
    process.env.NODE_ENV = 'production';
    createPaykitHandler({ ...base, logger: quiet, webhookSalt: 'salt-of-the-shop' });
    createPaykitHandler({ ...base, logger: quiet, webhookSalt: () => undefined });
    expect(quiet.lines).toEqual([]);
  });

  it('says once, in production without webhookSalt, what is not checked and where the salt is', () => {
    process.env.NODE_ENV = 'production';
    const logger = capture();
    createPaykitHandler({ ...base, logger });
    createPaykitHandler({ ...base, logger });
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(/webhookSalt/);
    expect(logger.lines[0]).toMatch(/beside the API key/);
  });
});
