import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { codeHash, MemoryCodeLedger } from './code-ledger.js';

describe('codeHash', () => {
  it('is SHA-256 of the client id and the code, never the code itself, and one app’s own', async () => {
    const code = 'Splx10BeZQQYbYS6WxSbIA';
    const hash = await codeHash('client_a', code);
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain(code);
    expect(await codeHash('client_a', code)).toBe(hash);
    expect(await codeHash('client_b', code)).not.toBe(hash);
    // Characters moved across the separator make another key.
    expect(await codeHash('client_a1', '23')).not.toBe(await codeHash('client_a', '123'));
  });

  it('is the key that node:crypto made before it moved to Web Crypto, so ledgers already kept still match', async () => {
    for (const [clientId, code] of [
      ['client_a', 'Splx10BeZQQYbYS6WxSbIA'],
      ['c', ''],
      ['ünïcode', 'code with spaces/+='],
    ] as const) {
      const before = createHash('sha256').update(`${clientId}\u0000${code}`).digest('base64url');
      expect(await codeHash(clientId, code)).toBe(before);
    }
  });
});

describe('MemoryCodeLedger', () => {
  it('answers true the first time and false for as long as the code is remembered', async () => {
    const ledger = new MemoryCodeLedger();
    expect(await ledger.claimCode('h1', 60_000)).toBe(true);
    expect(await ledger.claimCode('h1', 60_000)).toBe(false);
    expect(await ledger.claimCode('h2', 60_000)).toBe(true);
  });

  it('gives one of many concurrent claims of a code true', async () => {
    const ledger = new MemoryCodeLedger();
    const results = await Promise.all(Array.from({ length: 20 }, () => ledger.claimCode('same', 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('forgets a code once its time is over', async () => {
    const ledger = new MemoryCodeLedger();
    expect(await ledger.claimCode('h', 30)).toBe(true);
    expect(await ledger.claimCode('h', 30)).toBe(false);
    await delay(60);
    expect(await ledger.claimCode('h', 30)).toBe(true);
  });

  it('refuses new codes with rate_limited when full of live ones, rather than forget one', async () => {
    const ledger = new MemoryCodeLedger({ maxEntries: 3 });
    for (const hash of ['a', 'b', 'c']) expect(await ledger.claimCode(hash, 60_000)).toBe(true);
    await expect(ledger.claimCode('d', 60_000)).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfterSeconds: expect.any(Number),
    });
    // The remembered ones are still refused: nothing was forgotten to make room.
    expect(await ledger.claimCode('a', 60_000)).toBe(false);
  });

  it('makes room as codes expire', async () => {
    const ledger = new MemoryCodeLedger({ maxEntries: 2 });
    expect(await ledger.claimCode('a', 30)).toBe(true);
    expect(await ledger.claimCode('b', 30)).toBe(true);
    await delay(60);
    expect(await ledger.claimCode('c', 60_000)).toBe(true);
  });

  it('refuses a size that is not a positive whole number', () => {
    expect(() => new MemoryCodeLedger({ maxEntries: 0 })).toThrow(/"maxEntries" must be a positive whole number/);
  });
});
