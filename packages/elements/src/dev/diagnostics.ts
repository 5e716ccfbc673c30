/**
 * The production build's `#dev`: no diagnostics. Configuration is still checked before any request (by the
 * headless functions), but the why is told only by the development build (`diagnostics.development.ts`).
 */
import type { Diagnostics } from './diagnostics-api.js';

/** Nothing in production: the call sites are `dev?.…`, which a minifier reduces to nothing or next to it. */
export const dev: Diagnostics | undefined = undefined;
