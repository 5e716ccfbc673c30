/**
 * `runIdempotently` over the memory store: one run per key, conflicts, released failures, waiting for a claim
 * held elsewhere, and an outcome kept even when the store fails at the worst moment.
 */
import { isPaykitError } from '@paykit/core';
import { describe, expect, it, vi } from 'vitest';
import { runIdempotently, type IdempotencyPolicy } from './idempotency.js';
import { MemoryIdempotencyStore, type IdempotencyStore } from './idempotency-store.js';
import type { Logger } from './logger.js';

const policy: IdempotencyPolicy = { leaseMs: 400, ttlMs: 60_000 };
const quiet: Logger = { warn: () => undefined, error: () => undefined };

function counter() {
  let runs = 0;
  return {
    get runs() {
      return runs;
    },
    work: async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 30));
      return { id: `pr_${runs}` };
    },
  };
}

const run = (store: IdempotencyStore, key: string | null, fingerprint: string, work: () => Promise<unknown>) =>
  runIdempotently({ store, key, fingerprint, work, policy, logger: quiet });

describe('runIdempotently', () => {
  it('runs once for twenty concurrent requests with one key, and answers them all alike', async () => {
    const store = new MemoryIdempotencyStore();
    const job = counter();
    const results = await Promise.all(Array.from({ length: 20 }, () => run(store, 'key-0001', 'body', job.work)));
    expect(job.runs).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify(r)))).toEqual(new Set(['{"id":"pr_1"}']));
    expect(await run(store, 'key-0001', 'body', job.work)).toEqual({ id: 'pr_1' });
    expect(job.runs).toBe(1);
  });

  it('refuses the same key with another body as conflict, before and after the outcome', async () => {
    const store = new MemoryIdempotencyStore();
    const job = counter();
    const first = run(store, 'key-0002', 'body-a', job.work);
    // The first request holds the claim (its work started) before the second arrives: digests are async.
    await vi.waitFor(() => expect(job.runs).toBe(1));
    await expect(run(store, 'key-0002', 'body-b', job.work)).rejects.toMatchObject({ code: 'conflict' });
    await first;
    await expect(run(store, 'key-0002', 'body-b', job.work)).rejects.toMatchObject({ code: 'conflict' });
    expect(job.runs).toBe(1);
  });

  it('releases a failed run, so that the same key works again', async () => {
    const store = new MemoryIdempotencyStore();
    await expect(
      run(store, 'key-0003', 'body', async () => {
        throw new Error('upstream down');
      }),
    ).rejects.toThrow('upstream down');
    const job = counter();
    expect(await run(store, 'key-0003', 'body', job.work)).toEqual({ id: 'pr_1' });
  });

  it('waits for a claim held elsewhere, then answers conflict with Retry-After when it outlives the lease', async () => {
    const store = new MemoryIdempotencyStore();
    // Another instance claimed the key and has not finished; its claim lasts longer than this caller waits.
    await store.claim('key-0004', await sha256('body'), { leaseMs: 10_000, ttlMs: 60_000 });
    const job = counter();
    const started = Date.now();
    const failure = await run(store, 'key-0004', 'body', job.work).catch((error: unknown) => error);
    expect(isPaykitError(failure, 'conflict') && failure.retryAfterSeconds).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(policy.leaseMs - 50);
    expect(job.runs).toBe(0);
  });

  it('answers the outcome another instance stores while this caller waits', async () => {
    const store = new MemoryIdempotencyStore();
    const claim = await store.claim('key-0005', await sha256('body'), { leaseMs: 10_000, ttlMs: 60_000 });
    const job = counter();
    const waiting = run(store, 'key-0005', 'body', job.work);
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (claim.status !== 'claimed') throw new Error('the first claim must win');
    await store.complete('key-0005', claim.claimId, { id: 'pr_elsewhere' });
    expect(await waiting).toEqual({ id: 'pr_elsewhere' });
    expect(job.runs).toBe(0);
  });

  it('answers the created request even when the store fails to keep it, and keeps it once the store is back', async () => {
    const memory = new MemoryIdempotencyStore();
    let failures = 2;
    const flaky: IdempotencyStore = {
      claim: (...args) => memory.claim(...args),
      release: (...args) => memory.release(...args),
      complete: async (...args) => {
        if (failures > 0) {
          failures -= 1;
          throw new Error('database restarting');
        }
        return memory.complete(...args);
      },
    };
    const warnings: string[] = [];
    const job = counter();
    const result = await runIdempotently({
      store: flaky,
      key: 'key-0006',
      fingerprint: 'body',
      work: job.work,
      policy: { leaseMs: 5_000, ttlMs: 60_000 },
      logger: { warn: (message) => warnings.push(message), error: (message) => warnings.push(message) },
    });
    expect(result).toEqual({ id: 'pr_1' });
    expect(warnings).toEqual([
      'paykit: could not store the outcome of an idempotency key now; retrying in the background',
    ]);
    // The retries (100 ms, then 200 ms) land it: the same key now answers the same request without a new run.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await run(memory, 'key-0006', 'body', job.work)).toEqual({ id: 'pr_1' });
    expect(job.runs).toBe(1);
  });

  it("keeps a scoped key and a body as Web Crypto's SHA-256 of them, whichever hash runs (keys kept earlier match)", async () => {
    const memory = new MemoryIdempotencyStore();
    const claims: [string, string][] = [];
    const recording: IdempotencyStore = {
      claim: (key, fingerprint, options) => {
        claims.push([key, fingerprint]);
        return memory.claim(key, fingerprint, options);
      },
      release: (...args) => memory.release(...args),
      complete: (...args) => memory.complete(...args),
    };
    // Non-ASCII text and a lone surrogate (which both encoders write as U+FFFD).
    const scope = 'café \ud800 session';
    const body = '{"reference":"ünïcode \udfff"}';
    await runIdempotently({
      store: recording,
      key: 'key-0007',
      scope,
      fingerprint: body,
      work: counter().work,
      policy,
      logger: quiet,
    });
    expect(claims).toEqual([[`scoped:${await sha256(JSON.stringify([scope, 'key-0007']))}`, await sha256(body)]]);
  });

  it('refuses a malformed key with validation_failed naming the header', async () => {
    const store = new MemoryIdempotencyStore();
    await expect(run(store, 'short', 'body', counter().work)).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'Idempotency-Key' }],
    });
  });
});

async function sha256(text: string): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(hash), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
