/**
 * The browsers the elements support, stated once: the `browserslist` field of this package's package.json
 * (Safari and every iOS webview from 15.4, Firefox ESR and later, Chrome, Edge, Samsung Internet, Opera and
 * Android's WebView of the last two years). Everything else reads it from here or from that field: the build
 * target of the script-tag files (`vite.config.ts`) and of the bench's bundles, the compatibility lint of the
 * sources (`eslint.config.js`) and of the built bundles, Lit included (`bench/compat.ts`).
 */
import browserslist from 'browserslist';
import browserslistToEsbuild from 'browserslist-to-esbuild';

const config = browserslist.loadConfig({ path: new URL('.', import.meta.url).pathname });
if (!config?.length) throw new Error('packages/elements/package.json has no "browserslist" field');

/** The `browserslist` queries of package.json, as written. */
export const SUPPORTED_BROWSERS: readonly string[] = config;

/**
 * The build target that follows from them, in the esbuild form Vite 8 takes (`['chrome132', …, 'ios15.4',
 * 'safari15.4']`): the oldest version of each browser. Syntax newer than all of them is lowered (class static
 * blocks, regular-expression flags), never shipped as is.
 */
export const BUILD_TARGET: string[] = browserslistToEsbuild([...config]);
