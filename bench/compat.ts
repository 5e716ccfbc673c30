/**
 * The support matrix, checked on what ships: a built bundle (our code and everything it bundles, Lit included)
 * linted with the same browser-API rules as the sources (eslint.config.js), against the same browsers
 * (packages/elements/package.json's `browserslist`). The sources' lint cannot see inside Lit; this can.
 */
import { Linter } from 'eslint';
import compat from 'eslint-plugin-compat';
import { SUPPORTED_BROWSERS } from '../packages/elements/browsers.js';
import paykit from '../scripts/eslint-rules/compat-static.js';

const linter = new Linter({ configType: 'flat' });

/**
 * Uses that are feature tests, which the plugins cannot tell from uses: each with where and why it is safe.
 * A report must start with one of these words to be dropped.
 */
export const FEATURE_TESTED: Readonly<Record<string, string>> = {
  // load-drop-in.ts reads `globalThis.trustedTypes` and calls it only through `?.`: without it (Safari 15.4,
  // Firefox ESR before 146) the drop-in's script is loaded without a policy, as on a page that enforces none.
  trustedTypes: 'read from globalThis, used through ?. only (load-drop-in.ts)',
};

/** The browser APIs of `code` (an ES module) that a supported browser lacks, one line each; empty when none. */
export function unsupportedApis(code: string, name: string): string[] {
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.js'],
        languageOptions: { ecmaVersion: 'latest', sourceType: 'module' },
        plugins: { compat, paykit },
        settings: { browsers: [...SUPPORTED_BROWSERS], lintAllEsApis: true },
        rules: {
          'compat/compat': 'error',
          'paykit/compat-static': ['error', { browsers: [...SUPPORTED_BROWSERS] }],
        },
      },
    ],
    { filename: `${name}.js` },
  );
  return messages
    .filter((m) => !Object.keys(FEATURE_TESTED).some((api) => m.message.startsWith(`${api} `)))
    .map((m) => `${name}:${m.line}:${m.column} ${m.message}`);
}
