/**
 * The browser files must carry no secret and no server-only code: a planted canary (the sandbox's keys and
 * secret-shaped strings) and server modules are searched for in every built file of @paykit/elements.
 */
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const DIST = new URL('../packages/elements/dist/', import.meta.url);

async function builtFiles(): Promise<{ name: string; text: string }[]> {
  const names = (await readdir(DIST, { recursive: true })).filter((name) => name.endsWith('.js'));
  return Promise.all(names.map(async (name) => ({ name, text: await readFile(new URL(name, DIST), 'utf8') })));
}

describe('browser bundles', () => {
  it('exist (pnpm build ran) and hold no key, token or client secret', async () => {
    const files = await builtFiles();
    expect(files.map((f) => f.name)).toEqual(expect.arrayContaining(['paykit.js', 'paykit.iife.js']));
    const canaries = [
      'sandbox_api_key_demo_store',
      'sandbox_platform_key_demo_store',
      /\bsk_(live|sandbox)_[A-Za-z0-9_-]{10,}/,
      /\b(at|rt|cs)_sandbox_[A-Za-z0-9_-]{10,}/,
      /client_secret/,
      /x-business-api-key/i,
      /x-platform-key/i,
    ];
    for (const { name, text } of files) {
      for (const canary of canaries) {
        expect(
          typeof canary === 'string' ? text.includes(canary) : canary.test(text),
          `${String(canary)} in ${name}`,
        ).toBe(false);
      }
    }
  });

  it('pull in no server-only module and no classic zod', async () => {
    for (const { name, text } of await builtFiles()) {
      // Imports, not mentions: the tsc output keeps doc comments that name other packages.
      for (const marker of [
        /(from|import)\s*\(?\s*["'](node:|zod|oauth4webapi|@paykit\/(server|sandbox)|@paykit\/core["'])/,
        /\brequire\(/,
        /ZodError/,
      ]) {
        expect(marker.test(text), `${String(marker)} in ${name}`).toBe(false);
      }
    }
  });
});
