/**
 * The script-tag files: `dist/paykit.js` (ES module) and, with `--mode iife`, `dist/paykit.iife.js` (a classic
 * script exposing the global `Paykit`). Both define every element and bundle Lit. npm users import the
 * per-element entries that `tsc` builds instead.
 */
import { defineConfig } from 'vite';

export default defineConfig(({ mode }) => ({
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    sourcemap: true,
    minify: true,
    // Library mode keeps ES output's whitespace for re-bundlers; this file is shipped to pages as is.
    rolldownOptions: { output: { minify: true } },
    lib: {
      entry: 'src/all.ts',
      name: 'Paykit',
      formats: [mode === 'iife' ? 'iife' : 'es'],
      fileName: () => (mode === 'iife' ? 'paykit.iife.js' : 'paykit.js'),
    },
  },
}));
