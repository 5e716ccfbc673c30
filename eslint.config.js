// ESLint flat config: TypeScript everywhere, type-aware rules on the shipped sources, Lit and Lit-a11y rules
// on the elements, DESIGN.md's one-way arrows between packages, zero warnings (`pnpm lint`).
import js from '@eslint/js';
import { defineConfig, globalIgnores, includeIgnoreFile } from 'eslint/config';
import lit from 'eslint-plugin-lit';
import litA11y from 'eslint-plugin-lit-a11y';
import globals from 'globals';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';

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
);
