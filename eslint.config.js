// ESLint flat config: TypeScript everywhere, Lit and Lit-a11y rules on the elements, zero warnings allowed.
import js from '@eslint/js';
import lit from 'eslint-plugin-lit';
import litA11y from 'eslint-plugin-lit-a11y';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Tests read fixtures whose presence they just asserted.
      '@typescript-eslint/no-non-null-assertion': 'off',
      eqeqeq: ['error', 'always'],
      // Handlers made after the server listens are read by closures written before.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'no-console': 'error',
    },
  },
  {
    files: ['packages/elements/src/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    ...lit.configs['flat/recommended'],
  },
  {
    files: ['packages/elements/src/**/*.ts'],
    ...litA11y.configs.recommended,
  },
  {
    files: ['packages/elements/src/**/*.test.ts'],
    languageOptions: { globals: { ...globals.mocha } },
  },
  {
    // Where printing is the job: CLIs, the demo, the bench, and the default logger.
    files: [
      'packages/sandbox/src/cli.ts',
      'packages/sandbox/src/app.ts',
      'demo/**',
      'bench/**',
      'packages/server/src/handler/logger.ts',
    ],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.test.ts', 'test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
