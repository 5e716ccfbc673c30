// ESLint flat config: TypeScript everywhere, type-aware rules on the shipped sources, Lit and Lit-a11y rules
// on the elements, DESIGN.md's one-way arrows between packages, zero warnings (`pnpm lint`).
import js from '@eslint/js';
import tscompat from '@koddsson/eslint-plugin-tscompat';
import browserslist from 'browserslist';
import { defineConfig, globalIgnores, includeIgnoreFile } from 'eslint/config';
import compat from 'eslint-plugin-compat';
import lit from 'eslint-plugin-lit';
import litA11y from 'eslint-plugin-lit-a11y';
import globals from 'globals';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import paykit from './scripts/eslint-rules/compat-static.js';

/** Code that runs in Node: servers, the emulator, tests, the demo's backend, the bench, scripts, tool configs. */
const NODE_CODE = [
  'packages/server/**',
  'packages/sandbox/**',
  'packages/core/src/**/*.test.ts',
  'packages/elements/test-support/**',
  'packages/test-support/**',
  'packages/*/*.{js,mjs,ts}',
  'test/**',
  'demo/**',
  'bench/*.ts',
  'scripts/**',
  '*.{js,mjs,ts}',
];
/**
 * The browsers the elements support: the `browserslist` field of packages/elements/package.json, stated there once
 * (the build target and the bundle check read it too).
 */
const SUPPORTED_BROWSERS = browserslist.loadConfig({
  path: fileURLToPath(new URL('packages/elements', import.meta.url)),
});
/** What reaches shoppers' browsers: the elements and the browser part of @paykit/core they bundle. */
const SHIPPED_TO_BROWSERS = [
  'packages/elements/src/**/*.ts',
  'packages/core/src/browser.ts',
  'packages/core/src/errors.ts',
  'packages/core/src/amounts.ts',
  'packages/core/src/safe-url.ts',
];
/** Code that runs in the browser. `@paykit/core` gets neither set: it is isomorphic. */
const BROWSER_CODE = [
  'packages/elements/src/**',
  'packages/elements/test-support/backend-client.ts',
  'bench/entries/**',
];
/** What npm users run: checked with type information (slower, so not over tests, demo and bench). */
const SHIPPED_SOURCES = ['packages/*/src/**/*.ts'];
/** Tests and their helpers (the private @paykit/test-support included: it is never published). */
const TESTS = ['**/*.test.ts', 'test/**', 'packages/elements/test-support/**', 'packages/test-support/**'];

/** Globals that would tie isomorphic or browser code to one runtime. */
const NODE_ONLY_GLOBALS = ['process', 'Buffer', 'require', 'module', '__dirname', '__filename', 'global'];
const DOM_GLOBALS = ['window', 'document', 'navigator', 'location', 'localStorage', 'sessionStorage', 'customElements'];
const restrictGlobals = (names, why) => names.map((name) => ({ name, message: `${name} ${why}` }));

export default defineConfig(
  includeIgnoreFile(fileURLToPath(new URL('.gitignore', import.meta.url)), 'the .gitignore'),
  globalIgnores(['**/dist/', '**/node_modules/', '**/coverage/']),

  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      // With verbatimModuleSyntax, `import { type A } from 'x'` still loads 'x' (zod, in the browser).
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      // Handlers made after the server listens are read by closures written before.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'no-console': 'error',
    },
  },

  {
    files: SHIPPED_SOURCES,
    ignores: TESTS,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/only-throw-error': 'error',
      // `reject(signal.reason)` passes the abort reason on as it is.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      '@typescript-eslint/no-base-to-string': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },

  { files: NODE_CODE, languageOptions: { globals: { ...globals.node } } },
  { files: BROWSER_CODE, languageOptions: { globals: { ...globals.browser } } },
  { files: ['packages/elements/src/**/*.test.ts'], languageOptions: { globals: { ...globals.mocha } } },

  // DESIGN.md: elements -> core, server -> core, sandbox -> core, and nothing back.
  {
    files: ['packages/core/src/**/*.ts'],
    ignores: TESTS,
    rules: {
      'no-restricted-globals': [
        'error',
        ...restrictGlobals(NODE_ONLY_GLOBALS, 'is Node-only: @paykit/core runs in browsers too'),
        ...restrictGlobals(DOM_GLOBALS, 'is browser-only: @paykit/core runs on servers too'),
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: '^(node:|@paykit/)', message: '@paykit/core imports nothing of ours and no Node API.' }],
        },
      ],
    },
  },
  {
    files: ['packages/elements/src/**/*.ts'],
    ignores: TESTS,
    rules: {
      'no-restricted-globals': [
        'error',
        ...restrictGlobals(NODE_ONLY_GLOBALS, 'is Node-only: the elements run in browsers'),
      ],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@paykit/core',
              message: 'Import @paykit/core/browser: the main entry pulls in zod.',
              allowTypeImports: true,
            },
            { name: 'zod', message: 'Classic zod is about 27 kB gzip; the elements use plain checks.' },
          ],
          patterns: [
            { regex: '^node:', message: 'The elements run in browsers.' },
            { regex: '^@paykit/(server|sandbox)', message: 'Secrets and the emulator never reach the browser.' },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/server/src/**/*.ts'],
    ignores: TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^@paykit/(sandbox|elements)', message: 'The server helper depends on core only.' }] },
      ],
    },
  },
  {
    files: ['packages/sandbox/src/**/*.ts'],
    ignores: TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^@paykit/(server|elements)', message: 'The sandbox depends on core only.' }] },
      ],
    },
  },

  // The support matrix, enforced on what reaches shoppers: every browser API must be in every supported browser
  // (eslint-plugin-compat, and the type-aware tscompat, which also sees instance members such as
  // `Array.prototype.toSorted`, both from MDN's data; `paykit/compat-static` for the static members neither looks
  // up, `AbortSignal.any` among them). The built bundles, Lit included, get the same check (bench/compat.ts).
  {
    files: SHIPPED_TO_BROWSERS,
    ignores: TESTS,
    plugins: { compat, tscompat, paykit },
    settings: { browsers: SUPPORTED_BROWSERS, lintAllEsApis: true },
    rules: {
      'compat/compat': 'error',
      'tscompat/tscompat': ['error', { browserslist: SUPPORTED_BROWSERS }],
      'paykit/compat-static': ['error', { browsers: SUPPORTED_BROWSERS }],
      'no-restricted-properties': [
        'error',
        {
          object: 'crypto',
          property: 'randomUUID',
          message:
            'Secure contexts only: undefined on a shop served over http on a LAN address. Use randomUuid() (src/random.ts).',
        },
      ],
      // Safari 14 and 15 mis-scope class field initializers (WebKit bug 236843), so the build target (Safari 15.4)
      // lowers every class field and private member with helpers, about 500 B gzip on paykit.js. Shipped classes
      // use `declare`d fields set in the constructor, static getters and TypeScript-private members instead.
      'no-restricted-syntax': [
        'error',
        ...[
          'ClassBody > PropertyDefinition[declare!=true]',
          'ClassBody > MethodDefinition[key.type="PrivateIdentifier"]',
          'StaticBlock',
          'TSParameterProperty',
        ].map((selector) => ({
          selector,
          message:
            'No class fields, #private members, static blocks or parameter properties in browser code: Safari 15.4 needs them lowered (WebKit bug 236843). Use a declared field set in the constructor, a static getter, or a TypeScript-private member.',
        })),
      ],
    },
  },

  // Lit: the recommended sets, plus the rules that catch real bugs with standard class fields.
  {
    files: ['packages/elements/src/**/*.ts'],
    extends: [lit.configs['flat/recommended'], litA11y.configs.recommended],
    rules: {
      'lit/attribute-names': 'error',
      'lit/lifecycle-super': 'error',
      'lit/no-classfield-shadowing': 'error',
      'lit/no-invalid-escape-sequences': 'error',
      'lit/no-legacy-imports': 'error',
      'lit/no-native-attributes': 'error',
      'lit/no-template-bind': 'error',
      'lit/no-this-assign-in-render': 'error',
      'lit/no-useless-template-literals': 'error',
      'lit/no-value-attribute': 'error',
    },
  },

  // Where printing is the job: command-line tools, the demo, the bench, scripts, the runtime matrix's runners
  // (their result line is their output), and the server's default logger.
  {
    files: [
      '**/cli.ts',
      'packages/sandbox/src/commands/**',
      'packages/server/src/cli/**',
      'demo/**',
      'bench/**',
      'scripts/**',
      'test/runtimes/**',
      'packages/server/examples/**',
      'packages/server/src/handler/logger.ts',
    ],
    rules: { 'no-console': 'off' },
  },
  { files: TESTS, rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // The JavaScript of the examples (scripts/examples-js.ts writes them): Bun's and Deno's globals are theirs, as
  // runtime-globals.d.ts declares them for the TypeScript.
  { files: ['packages/server/examples/js/**'], languageOptions: { globals: { Bun: 'readonly', Deno: 'readonly' } } },
);
