/**
 * The support matrix's checks themselves: the browsers stated in packages/elements/package.json reach the build
 * target, and the compatibility rules (paykit/compat-static, and the bundle check built on it and
 * eslint-plugin-compat) report what Safari 15.4 lacks and nothing it has.
 */
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { unsupportedApis } from '../../bench/compat.js';
import { BUILD_TARGET, SUPPORTED_BROWSERS } from '../../packages/elements/browsers.js';
import paykit from '../../scripts/eslint-rules/compat-static.js';

function lint(code: string): string[] {
  const linter = new Linter({ configType: 'flat' });
  return linter
    .verify(
      code,
      [
        {
          files: ['**/*.js'],
          languageOptions: { ecmaVersion: 'latest', sourceType: 'module' },
          plugins: { paykit },
          rules: { 'paykit/compat-static': ['error', { browsers: [...SUPPORTED_BROWSERS] }] },
        },
      ],
      { filename: 'page.js' },
    )
    .map((m) => m.message);
}

describe('the support matrix', () => {
  it('is stated in packages/elements/package.json and reaches the build target', () => {
    expect(SUPPORTED_BROWSERS).toEqual(expect.arrayContaining(['safari >= 15.4', 'ios_saf >= 15.4', 'firefox esr']));
    expect(BUILD_TARGET).toEqual(expect.arrayContaining(['safari15.4', 'ios15.4']));
    expect(BUILD_TARGET.some((t) => /^chrome\d+$/.test(t))).toBe(true);
  });

  it('paykit/compat-static reports the static members Safari 15.4 lacks, with the version that has them', () => {
    expect(lint('AbortSignal.any([a]); AbortSignal.timeout(5); URL.canParse(u);')).toEqual([
      'AbortSignal.any() is not in every supported browser: missing in iOS Safari 15.4 (from 17.4), Safari 15.4 (from 17.4).',
      'AbortSignal.timeout() is not in every supported browser: missing in iOS Safari 15.4 (from 16), Safari 15.4 (from 16).',
      'URL.canParse() is not in every supported browser: missing in iOS Safari 15.4 (from 17), Safari 15.4 (from 17).',
    ]);
  });

  it('and nothing that every supported browser has, a feature test, or a local binding of the same name', () => {
    expect(
      lint(`
        new AbortController(); AbortSignal.abort(); Response.error();
        if (typeof AbortSignal.any === 'function') x();
        const y = AbortSignal.any ? 1 : 2;
        function f(AbortSignal) { return AbortSignal.any([]); }
      `),
    ).toEqual([]);
  });

  it('the bundle check reports them in built (minified) code too, and an API eslint-plugin-compat knows', () => {
    expect(unsupportedApis('let t=AbortSignal.timeout(5e3);navigator.userActivation;', 'chunk')).toEqual([
      'chunk:1:7 AbortSignal.timeout() is not in every supported browser: missing in iOS Safari 15.4 (from 16), Safari 15.4 (from 16).',
      'chunk:1:32 navigator.userActivation() is not supported in Safari 15.4, iOS Safari 15.4',
    ]);
    expect(
      unsupportedApis('let c=new AbortController,t=setTimeout(()=>c.abort(),15e3);clearTimeout(t);', 'chunk'),
    ).toEqual([]);
  });
});
