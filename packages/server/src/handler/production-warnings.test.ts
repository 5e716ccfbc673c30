/**
 * The warnings of a handler in production, each said once per process, never outside production: memory stores
 * name what is lost across instances; a handler without `webhookSalt` says signatures are not checked.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlatform } from '../platform/platform.js';
import { createPaykitHandler } from './create-handler.js';
import { MemoryEventStore } from './event-store.js';
import { FileEventStore } from './file-event-store.js';
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
const fileStore = () =>
  new FileEventStore({ path: join(mkdtempSync(join(tmpdir(), 'paykit-events-')), 'facts.jsonl') });

describe('the refusal of an event store in memory in production', () => {
  it('refuses the default and a MemoryEventStore, naming the durable stores and the option that accepts it', () => {
    process.env.NODE_ENV = 'production';
    for (const eventStore of [undefined, new MemoryEventStore()]) {
      let thrown: unknown;
      try {
        createPaykitHandler({
          api: shop,
          createPaymentRequest: price,
          logger: capture(),
          webhookSalt: 'salt-1',
          eventStore,
        });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ code: 'validation_failed', errors: [{ path: 'eventStore' }] });
      const { message } = thrown as Error;
      for (const named of ['createPostgresStores', 'FileEventStore', 'singleProcess: true', 'restart']) {
        expect(message).toContain(named);
      }
    }
  });

  it('takes a durable store, or memory with singleProcess, and anything outside production', () => {
    process.env.NODE_ENV = 'production';
    const quiet = capture();
    const shared = { api: shop, createPaymentRequest: price, logger: quiet, webhookSalt: 'salt-1' };
    createPaykitHandler({ ...shared, eventStore: fileStore(), idempotencyStore: new MemoryIdempotencyStore() });
    createPaykitHandler({ ...shared, singleProcess: true });
    createPaykitHandler({ ...shared, eventStore: new MemoryEventStore(), singleProcess: true });
    process.env.NODE_ENV = 'development';
    createPaykitHandler({ ...shared });
    expect(quiet.lines).toEqual([]);
  });
});

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
      eventStore: fileStore(),
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
    const options = {
      platform,
      createPaymentRequest: price,
      logger,
      webhookSalt: 'salt-platform',
      eventStore: fileStore(),
    };
    createPaykitHandler(options);
    createPaykitHandler(options);
    expect(logger.lines).toHaveLength(1);
    const [warning] = logger.lines;
    for (const lost of [
      'idempotency keys',
      'merchant connections',
      'the token-endpoint budget',
      'createPostgresStores',
    ]) {
      expect(warning).toContain(lost);
    }
  });
});

const shared = {
  api: { apiBaseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test_salt_warning' },
  createPaymentRequest: () => ({ amount: '1.00', currency: 'SGD' }),
  // One process said, so that the only warning left to give is this one.
  singleProcess: true,
};

describe('the warning about unsigned webhooks in production', () => {
  it('says nothing outside production, nor in production with a salt', () => {
    const quiet = capture();
    process.env.NODE_ENV = 'development';
    createPaykitHandler({ ...shared, logger: quiet });
    process.env.NODE_ENV = 'production';
    createPaykitHandler({ ...shared, logger: quiet, webhookSalt: 'salt-of-the-shop' });
    createPaykitHandler({ ...shared, logger: quiet, webhookSalt: () => undefined });
    expect(quiet.lines).toEqual([]);
  });

  it('says once, in production without webhookSalt, what is not checked and where the salt is', () => {
    process.env.NODE_ENV = 'production';
    const logger = capture();
    createPaykitHandler({ ...shared, logger });
    createPaykitHandler({ ...shared, logger });
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(/webhookSalt/);
    expect(logger.lines[0]).toMatch(/beside the API key/);
  });
});
