/**
 * The browser files must carry no secret and no server-only code: a planted canary (the sandbox's keys and
 * secret-shaped strings) and server modules are searched for in every built file of @paykit/elements and in
 * the demo's framework apps (which bundle it from npm-style imports, as a merchant's app does).
 */
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const DISTS = [
  new URL('../packages/elements/dist/', import.meta.url),
  new URL('../demo/dist/examples/', import.meta.url),
];

async function builtFiles(): Promise<{ name: string; text: string }[]> {
  const files = await Promise.all(
    DISTS.map(async (dist) => {
      const names = (await readdir(dist, { recursive: true })).filter((name) => name.endsWith('.js'));
      return Promise.all(
        names.map(async (name) => ({
          name: new URL(name, dist).pathname,
          text: await readFile(new URL(name, dist), 'utf8'),
        })),
      );
    }),
  );
  return files.flat();
}

describe('browser bundles', () => {
  it('exist (pnpm build ran) and hold no key, token or client secret', async () => {
    const files = await builtFiles();
    const names = files.map((f) => f.name.split('/').slice(-2).join('/'));
    expect(names).toEqual(
      expect.arrayContaining(['dist/paykit.js', 'dist/paykit.iife.js', 'examples/react.js', 'examples/vue.js']),
    );
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
