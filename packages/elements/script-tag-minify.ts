/**
 * How the production script-tag files (`dist/paykit.js`, `dist/paykit.iife.js`) are minified: Rolldown output
 * options shared by `vite.config.ts` and `bench/bundle-sizes.ts`, which measures the all-elements bundle as it
 * ships. These files are final (pages load them as they are; no bundler reads them again), so they keep no
 * annotation comments (`@__PURE__` only helps a later bundler). The per-element entries that npm users bundle
 * themselves are not minified by paykit at all.
 */
export const scriptTagOutput = {
  comments: false,
  minify: { compress: true, mangle: true, codegen: { removeWhitespace: true } },
} as const;

/**
 * Rolldown input options of the ES script-tag files. Library mode keeps an entry's exports exactly ('strict'), so
 * the modules that the OAuth callback's lazy chunk shares with the entry went to a third, common chunk that
 * every page fetched too; 'allow-extension' lets `paykit.js` also export them to its lazy chunk (which imports
 * `./paykit.js`), so a page fetches one file, and a platform's callback page one more.
 */
export const scriptTagInput = { preserveEntrySignatures: 'allow-extension' } as const;

/**
 * The classic-script file (`dist/paykit.iife.js`) cannot split: the OAuth callback's lazy chunk is inlined, so
 * it is one chunk, and its elements' private reactive states (`_busy`, `_error`, `_state`, `_text`, `_payment`,
 * `_stalled`: nothing outside the file reads them) get short names. Rolldown mangles properties only in a
 * one-chunk build, so the ES file, which has a lazy chunk, keeps them (the split saves more than this did).
 */
export const scriptTagIifeOutput = {
  ...scriptTagOutput,
  minify: {
    ...scriptTagOutput.minify,
    // Lit's own cross-package names start with `_$` and are left alone: only `_` then a lower-case letter.
    mangleProps: { include: /^_[a-z]/ },
  },
} as const;
