import { testDatabaseUrl, testTablePrefix } from '@paykit/test-support/postgres';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MerchantCredentials } from '../oauth/connection-store.js';
import { CredentialSealer } from '../oauth/credential-sealer.js';
import { createPostgresStores } from './create-postgres-stores.js';
import type { Database } from './database.js';
import { nodePostgresDatabase } from './node-postgres.js';
import { tablesOf } from './schema.js';
import { openStores, type PostgresStores } from './stores.js';

const oauth = (n: number): MerchantCredentials => ({
  kind: 'oauth',
  accessToken: `access-SECRET-${n}`,
  refreshToken: `refresh-SECRET-${n}`,
  expiresAt: 1_900_000_000_000 + n,
  scope: 'payments',
});

describe('PostgresConnectionStore', () => {
  const prefix = testTablePrefix();
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);
  const open: PostgresStores[] = [];
  let sql: pg.Pool;

  const stores = async (encryptionKey: Uint8Array | Uint8Array[]) => {
    const made = await createPostgresStores({
      connectionString: testDatabaseUrl(),
      encryptionKey,
      tablePrefix: prefix,
    });
    open.push(made);
    return made;
  };

  beforeAll(() => {
    sql = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
  });
  afterAll(async () => {
    await Promise.all(open.map((made) => made.close()));
    await sql.end();
  });

  it('keeps, replaces and deletes credentials of both kinds', async () => {
    const { connections } = await stores(keyA);
    expect(await connections.get('biz_none')).toBeUndefined();
    await connections.set('biz_rt', { kind: 'api_key', apiKey: 'sk_SECRET' });
    expect(await connections.get('biz_rt')).toEqual({ kind: 'api_key', apiKey: 'sk_SECRET' });
    await connections.set('biz_rt', oauth(1));
    expect(await connections.get('biz_rt')).toEqual(oauth(1));
    await connections.delete('biz_rt');
    expect(await connections.get('biz_rt')).toBeUndefined();
    await connections.delete('biz_rt');
  });

  it('round-trips the issue time, and tokens without a refresh token', async () => {
    const { connections } = await stores(keyA);
    const issued: MerchantCredentials = {
      kind: 'oauth',
      accessToken: 'access-SECRET-4',
      refreshToken: 'refresh-SECRET-4',
      issuedAt: 1_700_000_000_000,
      expiresAt: 1_700_000_300_000,
    };
    const noRefresh: MerchantCredentials = { kind: 'oauth', accessToken: 'access-SECRET-5', expiresAt: 1, issuedAt: 0 };
    await connections.set('biz_issued', issued);
    await connections.set('biz_norefresh', noRefresh);
    const reopened = (await stores(keyA)).connections;
    expect(await reopened.get('biz_issued')).toEqual(issued);
    expect(await reopened.get('biz_norefresh')).toEqual(noRefresh);
  });

  it('keeps no token in clear in the table', async () => {
    const { connections } = await stores(keyA);
    await connections.set('biz_raw', oauth(2));
    const { rows } = await sql.query(`SELECT * FROM ${prefix}connections WHERE business_id = 'biz_raw'`);
    expect(rows).toHaveLength(1);
    const raw = Buffer.from(
      JSON.stringify(rows[0]) + Buffer.from(rows[0]!.ciphertext as Uint8Array).toString('latin1'),
    );
    expect(raw.toString('latin1')).not.toMatch(/SECRET|access|refresh|payments/);
    expect(rows[0]!.key_id).toBe(new CredentialSealer(keyA).keyId);
    expect(rows[0]!.key_id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('refuses to open a row copied to another business, or with a wrong key, saying nothing of either', async () => {
    const { connections } = await stores(keyA);
    await connections.set('biz_aad', oauth(3));
    await sql.query(
      `INSERT INTO ${prefix}connections (business_id, key_id, iv, tag, ciphertext)
       SELECT 'biz_thief', key_id, iv, tag, ciphertext FROM ${prefix}connections WHERE business_id = 'biz_aad'`,
    );
    const stolen = await connections.get('biz_thief').catch((error: unknown) => error);
    expect(stolen).toMatchObject({ code: 'internal_error', message: expect.stringMatching(/could not be decrypted/) });
    expect(String((stolen as Error).message)).not.toMatch(/SECRET/);

    const wrong = await stores(randomBytes(32));
    const refused = await wrong.connections.get('biz_aad').catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'internal_error' });
    expect((refused as Error).message).not.toContain(keyA.toString('hex'));
    expect((refused as Error).message).not.toMatch(/SECRET/);
  });

  it('rotates keys: [B, A] opens rows of A, reencryptConnections rewrites them, then B alone opens them', async () => {
    const rotation = testTablePrefix();
    const make = async (encryptionKey: Uint8Array | Uint8Array[]) => {
      const made = await createPostgresStores({
        connectionString: testDatabaseUrl(),
        encryptionKey,
        tablePrefix: rotation,
      });
      open.push(made);
      return made;
    };
    const withA = await make(keyA);
    const count = 230; // more than two batches
    for (let i = 0; i < count; i += 1) await withA.connections.set(`biz_${String(i).padStart(3, '0')}`, oauth(i));
    const both = await make([keyB, keyA]);
    expect(await both.connections.get('biz_007')).toEqual(oauth(7));
    await both.connections.set('biz_new', oauth(999)); // already sealed with B
    expect(await both.reencryptConnections()).toEqual({ rewritten: count });
    expect(await both.reencryptConnections()).toEqual({ rewritten: 0 });
    const onlyB = await make(keyB);
    expect(await onlyB.connections.get('biz_229')).toEqual(oauth(229));
    expect(await onlyB.connections.get('biz_new')).toEqual(oauth(999));
    await expect(withA.connections.get('biz_000')).rejects.toMatchObject({ code: 'internal_error' });
  });

  it('re-encryption never overwrites tokens that a refresh stored meanwhile (compare-and-set)', async () => {
    const race = tablesOf(testTablePrefix());
    const base = nodePostgresDatabase({ connectionString: testDatabaseUrl(), connectTimeoutMs: 2_000, max: 3 });
    const withA = await openStores(base, settings(race, keyA));
    open.push(withA);
    await withA.connections.set('biz_race', oauth(1));
    let rotated: PostgresStores | undefined;
    // The refresh lands between the rotation's read of the row and its write back.
    const interleaved: Database = {
      ...base,
      async query<Row extends object>(text: string, values?: readonly unknown[]): Promise<Row[]> {
        if (/SET key_id = \$2, iv = \$3/.test(text)) await rotated!.connections.set('biz_race', oauth(2));
        return base.query<Row>(text, values);
      },
      close: async () => undefined,
    };
    rotated = await openStores(interleaved, settings(race, [keyB, keyA]));
    expect(await rotated.reencryptConnections()).toEqual({ rewritten: 0 });
    expect(await rotated.connections.get('biz_race')).toEqual(oauth(2));
  });
});

function settings(tables: ReturnType<typeof tablesOf>, encryptionKey: Uint8Array | Uint8Array[]) {
  return {
    tables,
    sealer: new CredentialSealer(encryptionKey),
    tokenRequestsPerMinute: 90,
    eventLeaseMs: 60_000,
    eventRetentionMs: Infinity,
  };
}
