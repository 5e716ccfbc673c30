import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CredentialSealer } from './credential-sealer.js';

const credentials = { kind: 'api_key', apiKey: 'sk_live_SECRET' } as const;

describe('CredentialSealer', () => {
  it('opens what it sealed, and nothing of it is in clear', () => {
    const sealer = new CredentialSealer(randomBytes(32));
    const sealed = sealer.seal('biz_1', credentials);
    expect(sealed.iv).toHaveLength(12);
    expect(sealed.tag).toHaveLength(16);
    expect(sealed.ciphertext.toString('latin1')).not.toMatch(/SECRET|api_key/);
    expect(sealer.open('biz_1', sealed)).toEqual(credentials);
    expect(sealer.seal('biz_1', credentials).iv).not.toEqual(sealed.iv);
  });

  it('takes a key as bytes, hex or base64, and refuses anything but 32 bytes without echoing it', () => {
    const key = randomBytes(32);
    const sealed = new CredentialSealer(key).seal('biz_1', credentials);
    expect(new CredentialSealer(key.toString('hex')).open('biz_1', sealed)).toEqual(credentials);
    expect(new CredentialSealer(key.toString('base64')).open('biz_1', sealed)).toEqual(credentials);
    expect(new CredentialSealer(key.toString('base64url')).open('biz_1', sealed)).toEqual(credentials);
    for (const bad of [randomBytes(16), 'ab'.repeat(31), randomBytes(31).toString('base64'), 'not a key at all']) {
      expect(() => new CredentialSealer(bad, '"encryptionKey"')).toThrow(/"encryptionKey" must be 32 bytes/);
      try {
        new CredentialSealer(bad);
      } catch (error) {
        if (typeof bad === 'string') expect((error as Error).message).not.toContain(bad);
      }
    }
    expect(() => new CredentialSealer([key, randomBytes(3)], '"encryptionKey"')).toThrow(/"encryptionKey"\[1\]/);
    expect(() => new CredentialSealer([])).toThrow(/at least one key/);
  });

  it('refuses an entry of another business, an altered entry and a wrong key with internal_error', () => {
    const key = randomBytes(32);
    const sealer = new CredentialSealer(key);
    const sealed = sealer.seal('biz_1', credentials);
    const refused = (open: () => unknown) => {
      try {
        open();
      } catch (error) {
        expect(error).toMatchObject({ code: 'internal_error' });
        expect((error as Error).message).not.toMatch(/SECRET/);
        expect((error as Error).message).not.toContain(key.toString('hex'));
        return;
      }
      throw new Error('opened');
    };
    refused(() => sealer.open('biz_2', sealed));
    const flipped = Buffer.from(sealed.ciphertext);
    flipped[0]! ^= 1;
    refused(() => sealer.open('biz_1', { ...sealed, ciphertext: flipped }));
    refused(() => new CredentialSealer(randomBytes(32)).open('biz_1', sealed));
    refused(() => sealer.open('biz_1', { ...sealed, keyId: undefined, tag: randomBytes(16) }));
  });

  it('rotates: the first key seals, every key opens, key ids tell them apart', () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const before = new CredentialSealer(oldKey);
    const sealedOld = before.seal('biz_1', credentials);
    const during = new CredentialSealer([newKey, oldKey]);
    expect(during.keyId).not.toBe(before.keyId);
    expect(during.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(during.isCurrent(sealedOld)).toBe(false);
    expect(during.open('biz_1', sealedOld)).toEqual(credentials);
    // An entry without a key id (written before ids existed) is tried with every key.
    expect(during.open('biz_1', { ...sealedOld, keyId: undefined })).toEqual(credentials);
    const sealedNew = during.seal('biz_1', credentials);
    expect(during.isCurrent(sealedNew)).toBe(true);
    expect(new CredentialSealer(newKey).open('biz_1', sealedNew)).toEqual(credentials);
    expect(() => before.open('biz_1', sealedNew)).toThrow(/could not be decrypted/);
  });
});
