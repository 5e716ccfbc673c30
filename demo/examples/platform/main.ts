/**
 * The marketplace page's script (`/platform`), as a platform's bundler builds it: the elements it shows and the
 * merchant views from their own entries, one copy of Lit for all (two copies would each ask the page's Trusted
 * Types policy for `lit-html`, and the second is refused). Built by `pnpm --filter @paykit/demo build` into
 * `dist/examples/platform.js` (the refund confirmation a lazy chunk beside it). The shop's pages keep the
 * script-tag file, `paykit.js`.
 */
import '@paykit/elements/all';
import '@paykit/elements/connection';
import '@paykit/elements/merchant-payments';
import '@paykit/elements/merchant-payouts';
