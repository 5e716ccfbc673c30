/**
 * How the production script-tag files (`dist/paykit.js`, `dist/paykit.iife.js`) are minified: Rolldown output
 * options shared by `vite.config.ts` and `bench/bundle-sizes.ts`, which measures the all-elements bundle as it
 * ships. These files are final (pages load them as they are; no bundler reads them again), so they keep no
 * annotation comments (`@__PURE__` only helps a later bundler), and the elements' private reactive states
 * (`_busy`, `_error`, `_state`, `_text`, `_payment`, `_stalled`: nothing outside the file reads them) get short
 * names. The per-element entries that npm users bundle themselves are not minified by paykit at all.
 */
export const scriptTagOutput = {
  comments: false,
  minify: {
    compress: true,
    mangle: true,
    codegen: { removeWhitespace: true },
    // Lit's own cross-package names start with `_$` and are left alone: only `_` then a lower-case letter.
    mangleProps: { include: /^_[a-z]/ },
  },
} as const;
