import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileConnectionStore } from './file-connection-store.js';

const credentials = {
  kind: 'oauth',
  accessToken: 'access-SECRET',
  refreshToken: 'refresh-SECRET',
  expiresAt: 1,
} as const;

describe('FileConnectionStore', () => {
  it('survives a restart, and keeps no secret in clear on disk', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'paykit-store-')), 'connections.json');
    const key = randomBytes(32);
    await new FileConnectionStore({ path, key }).set('biz_1', credentials);
    expect(await new FileConnectionStore({ path, key: key.toString('hex') }).get('biz_1')).toEqual(credentials);
    const disk = await readFile(path, 'utf8');
    expect(disk).not.toContain('SECRET');
    expect(disk).not.toContain('access');
  });

  it('round-trips the issue time, and tokens without a refresh token', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'paykit-store-')), 'connections.json');
    const key = randomBytes(32);
    const issued = { ...credentials, issuedAt: 1_700_000_000_000, expiresAt: 1_700_000_300_000 };
    const { refreshToken: _dropped, ...noRefresh } = issued;
    await new FileConnectionStore({ path, key }).set('biz_1', issued);
    await new FileConnectionStore({ path, key }).set('biz_2', noRefresh);
    const reopened = new FileConnectionStore({ path, key });
    expect(await reopened.get('biz_1')).toEqual(issued);
    expect(await reopened.get('biz_2')).toEqual(noRefresh);
  });

  it('refuses to open with another key, or an entry moved to another business', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'paykit-store-')), 'connections.json');
    const key = randomBytes(32);
    await new FileConnectionStore({ path, key }).set('biz_1', credentials);
    await expect(new FileConnectionStore({ path, key: randomBytes(32) }).get('biz_1')).rejects.toMatchObject({
      code: 'internal_error',
    });
    const entries = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    await writeFile(path, JSON.stringify({ biz_2: entries.biz_1 }));
    await expect(new FileConnectionStore({ path, key }).get('biz_2')).rejects.toThrow(/could not be decrypted/);
  });

  it('keeps every one of many concurrent writes, and deletes', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'paykit-store-')), 'connections.json');
    const key = randomBytes(32);
    const store = new FileConnectionStore({ path, key });
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.set(`biz_${i}`, { kind: 'api_key', apiKey: `key_${i}` })),
    );
    await store.delete('biz_7');
    const reopened = new FileConnectionStore({ path, key });
    expect(await reopened.get('biz_49')).toEqual({ kind: 'api_key', apiKey: 'key_49' });
    expect(await reopened.get('biz_7')).toBeUndefined();
  });

  it('rotates keys: with [new, old] it opens entries of the old key and seals new writes with the new one', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'paykit-store-')), 'connections.json');
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    await new FileConnectionStore({ path, key: oldKey }).set('biz_1', credentials);
    const rotated = new FileConnectionStore({ path, key: [newKey, oldKey] });
    expect(await rotated.get('biz_1')).toEqual(credentials);
    await rotated.set('biz_2', { kind: 'api_key', apiKey: 'key_2' });
    const onlyNew = new FileConnectionStore({ path, key: newKey });
    expect(await onlyNew.get('biz_2')).toEqual({ kind: 'api_key', apiKey: 'key_2' });
    await expect(onlyNew.get('biz_1')).rejects.toMatchObject({ code: 'internal_error' });
  });

  it('opens entries written before key ids existed', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'paykit-store-')), 'connections.json');
    const key = randomBytes(32);
    await new FileConnectionStore({ path, key }).set('biz_1', credentials);
    const entries = JSON.parse(await readFile(path, 'utf8')) as Record<string, Record<string, string>>;
    delete entries.biz_1!.key;
    await writeFile(path, JSON.stringify(entries));
    expect(await new FileConnectionStore({ path, key: [randomBytes(32), key] }).get('biz_1')).toEqual(credentials);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new FileConnectionStore({ path: 'x', key: 'short' })).toThrow(/32 bytes/);
  });
});
