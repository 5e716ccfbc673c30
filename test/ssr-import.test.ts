/**
 * Server-side rendering frameworks import components in Node: no entry of any package may touch `window`,
 * `document` or `customElements` at module load.
 */
import { describe, expect, it } from 'vitest';

describe('importing in Node', () => {
  it.each([
    '@paykit/core',
    '@paykit/core/browser',
    '@paykit/elements',
    '@paykit/elements/pay-button',
    '@paykit/elements/connect-button',
    '@paykit/elements/return',
    '@paykit/elements/all',
    '@paykit/elements/react',
    '@paykit/elements/react/pay-button',
    '@paykit/elements/react/connect-button',
    '@paykit/elements/react/return',
    '@paykit/server',
    '@paykit/server/client',
    '@paykit/server/node',
    '@paykit/server/express',
  ])('%s loads without a DOM', async (entry) => {
    expect('document' in globalThis).toBe(false);
    await expect(import(entry)).resolves.toBeDefined();
  });
});
