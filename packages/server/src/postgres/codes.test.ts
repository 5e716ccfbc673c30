import { testDatabaseUrl, testTablePrefix } from '@paykit/test-support/postgres';
import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { codeHash } from '../oauth/code-ledger.js';
import { createPostgresStores } from './create-postgres-stores.js';
import type { PostgresStores } from './stores.js';

describe('PostgresCodeLedger', () => {
  const prefix = testTablePrefix();
  const made: PostgresStores[] = [];
  const instance = async (tablePrefix = prefix) => {
    const stores = await createPostgresStores({
      connectionString: testDatabaseUrl(),
      encryptionKey: randomBytes(32),
      tablePrefix,
    });
    made.push(stores);
    return stores;
  };
  const rows = async (text: string) => {
    const sql = new pg.Pool({ connectionString: testDatabaseUrl(), max: 1 });
    try {
      return (await sql.query(text)).rows;
    } finally {
      await sql.end();
    }
  };
  afterAll(() => Promise.all(made.map((stores) => stores.close())));

  it('answers true the first time, and false on every instance after that', async () => {
    const [one, two] = [await instance(), await instance()];
    const hash = await codeHash('client_1', 'code-tried-on-one');
    expect(await one.codes.claimCode(hash, 60_000)).toBe(true);
    expect(await two.codes.claimCode(hash, 60_000)).toBe(false);
    expect(await one.codes.claimCode(hash, 60_000)).toBe(false);
  });

  it('gives one of many concurrent claims from several instances true', async () => {
    const fleet = [await instance(), await instance(), await instance()];
    const hash = await codeHash('client_1', 'raced');
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => fleet[i % fleet.length]!.codes.claimCode(hash, 60_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('keeps the hash only, and treats a code past its time as new', async () => {
    const stores = await instance();
    const code = 'a-code-that-must-not-be-stored';
    const hash = await codeHash('client_1', code);
    expect(await stores.codes.claimCode(hash, 30)).toBe(true);
    const stored = await rows(`SELECT code_hash FROM ${prefix}oauth_codes`);
    expect(stored).toContainEqual({ code_hash: hash });
    expect(JSON.stringify(stored)).not.toContain(code);
    await delay(60);
    expect(await stores.codes.claimCode(hash, 60_000)).toBe(true);
    expect(await stores.codes.claimCode(hash, 60_000)).toBe(false);
  });

  it('deletes expired rows now and then, in the background', async () => {
    const sweepPrefix = testTablePrefix();
    const first = await instance(sweepPrefix);
    for (let i = 0; i < 20; i += 1) await first.codes.claimCode(`old-${i}`, 1);
    await first.close();
    await delay(50);
    const second = await instance(sweepPrefix);
    await second.codes.claimCode('fresh', 60_000);
    await second.close(); // waits for the sweep
    expect(await rows(`SELECT code_hash FROM ${sweepPrefix}oauth_codes`)).toEqual([{ code_hash: 'fresh' }]);
  });
});
