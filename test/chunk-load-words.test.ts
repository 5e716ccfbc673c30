/**
 * A lazy chunk that does not load is explained in the console by the development file only (issue 26; the
 * explanation itself, in every engine, is test/e2e/chunk-load-diagnostics.test.ts): none of its words ship to
 * shoppers in the production files. Against the built `packages/elements/dist` (`pnpm build`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DIST = new URL('../packages/elements/dist/', import.meta.url);

describe('a lazy chunk that does not load, in the production files', () => {
  it('is not explained: none of these words ship to shoppers', () => {
    const production = readdirSync(DIST).filter((name) => /^paykit(?!\.development)[\w.-]*\.js$/.test(name));
    expect(production).toContain('paykit.js');
    for (const name of production)
      expect(readFileSync(new URL(name, DIST), 'utf8'), name).not.toMatch(/could not be loaded|\[paykit\]/);
    const development = readFileSync(new URL('paykit.development.js', DIST), 'utf8');
    expect(development).toContain('could not be loaded');
  });
});

describe('the script-tag files a page loads first', () => {
  it('import no other file at load: a page that copied one alone still runs it (only a lazy chunk can be missing)', () => {
    for (const name of ['paykit.js', 'paykit.development.js']) {
      const code = readFileSync(new URL(name, DIST), 'utf8');
      // A static import or re-export of a sibling file (`import{a}from"./paykit…js"`, `export…from"./…"`).
      expect(code, name).not.toMatch(/(?:import|export)\s*(?:\{[^}]*\}|\*(?:\s*as\s*\w+)?)?\s*from\s*["'`]\.\//);
      expect(code, name).not.toMatch(/(?:^|[;}])\s*import\s*["'`]\.\//);
    }
  });
});
