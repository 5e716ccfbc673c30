/**
 * The script-tag files, each in two flavours: `dist/paykit.js` (ES module) and, with `--mode iife`,
 * `dist/paykit.iife.js` (a classic script exposing the global `Paykit`) are the production build; with
 * `--mode development` and `--mode development-iife`, `dist/paykit.development.js` and
 * `dist/paykit.development.iife.js` carry the console diagnostics (`#dev` resolved with the `development`
 * condition, and Lit's dev mode). Each file says which it is in its first line. All define every element and
 * bundle Lit. The ES files import the OAuth callback's code (only a platform's callback page runs it) from a
 * lazy chunk next to them, `paykit.handle-connect-return-<hash>.js`; the classic scripts cannot split and carry
 * it inline. npm users import the per-element entries that `tsc` builds instead.
 */
import { defineConfig } from 'vite';
import { BUILD_TARGET } from './browsers.js';
import { chunkLoadDiagnostics } from './chunk-load-diagnostics.js';
import { scriptTagIifeOutput, scriptTagInput, scriptTagOutput } from './script-tag-minify.js';

export default defineConfig(({ mode }) => {
  const development = mode.startsWith('development');
  const iife = mode.endsWith('iife');
  const fileName = `paykit${development ? '.development' : ''}${iife ? '.iife' : ''}.js`;
  return {
    // Vite resolves `development` only in its dev server; these builds choose it by their mode.
    resolve: { conditions: ['module', 'browser', development ? 'development' : 'production'] },
    // The development ES file names a lazy chunk that did not load, and where to serve it from.
    plugins: development && !iife ? [chunkLoadDiagnostics(fileName)] : [],
    build: {
      outDir: 'dist',
      emptyOutDir: false,
      // The supported browsers (package.json's `browserslist`, read in browsers.ts), oldest of each: syntax that
      // Safari 15.4 lacks is lowered here, not shipped.
      target: BUILD_TARGET,
      sourcemap: true,
      minify: true,
      rolldownOptions: {
        ...scriptTagInput,
        output: {
          // Library mode keeps ES output's whitespace for re-bundlers; this file is shipped to pages as is. The
          // development files stay readable (Lit's dev mode, the diagnostics): minified, but without renamed properties.
          ...(development ? { minify: true } : iife ? scriptTagIifeOutput : scriptTagOutput),
          // The ES file's lazy chunk (the OAuth callback's code, for a platform's callback page only) sits next to
          // it in dist/, named after it, and is imported relative to it: from a CDN path as from a copied dist/.
          chunkFileNames: `paykit${development ? '.development' : ''}.[name]-[hash].js`,
          // After minification (postBanner), which would drop a plain banner.
          postBanner: development
            ? `/*! @paykit/elements ${fileName}: DEVELOPMENT build, with console diagnostics. Use paykit${iife ? '.iife' : ''}.js in production. */`
            : `/*! @paykit/elements ${fileName}: production build. paykit.development${iife ? '.iife' : ''}.js explains misconfiguration in the console. */`,
        },
      },
      lib: {
        entry: 'src/all.ts',
        name: 'Paykit',
        formats: [iife ? 'iife' : 'es'],
        fileName: () => fileName,
      },
    },
  };
});
