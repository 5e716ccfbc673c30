/**
 * Bytes a merchant page downloads: each entry bundled by Vite (Lit inside, minified, ES module), then gzip -9
 * and brotli (quality 11), beside a bare Lit element built the same way and two OAuth SDKs as comparisons.
 * Production bundles are budgeted and must carry none of the development build's diagnostics; the development
 * build (the `development` condition, as a dev server resolves it) is measured, not budgeted, and must carry them.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';
import { scriptTagOutput } from '../packages/elements/script-tag-minify.js';

/** One measured bundle. */
export interface BundleSize {
  name: string;
  minified: number;
  gzip: number;
  brotli: number;
  /** gzip budget in bytes, if the bundle has one. */
  budget?: number;
  /** Other elements' code found in a one-element bundle (their tag names or endpoints): should be none. */
  leaks: string[];
}

/** A tag name as a string literal (not inside a CSS custom property such as `--paykit-pay-button-color`). */
const tag = (name: string) => new RegExp(`["'\`]${name}["'\`]`);

/** Words of the development build's diagnostics (packages/elements/src/dev): none may reach a production bundle. */
export const DIAGNOSTICS: readonly RegExp[] = [/\[paykit\]/, /allowedOrigins/, /publicOrigin/, /has no endpoint/];

/** The entries, their budgets (bytes of gzip; 1 kB = 1000 bytes, the strict reading). */
export const ENTRIES: readonly {
  name: string;
  file: string;
  budget?: number;
  without?: readonly RegExp[];
  /** Resolve with the `development` condition (the development build). */
  development?: boolean;
  /** Minified as the production script-tag file is (packages/elements/script-tag-minify.ts). */
  scriptTag?: boolean;
}[] = [
  { name: 'paykit: all elements (script tag)', file: 'all.ts', budget: 11_000, without: DIAGNOSTICS, scriptTag: true },
  {
    name: 'paykit: pay button alone',
    file: 'pay-button.ts',
    budget: 9_000,
    without: [tag('paykit-connect-button'), tag('paykit-return'), /\/oauth\//, ...DIAGNOSTICS],
  },
  {
    name: 'paykit: connect button alone',
    file: 'connect-button.ts',
    budget: 9_000,
    without: [tag('paykit-pay-button'), tag('paykit-return'), /\/payment-requests/, ...DIAGNOSTICS],
  },
  {
    name: 'paykit: return handler alone',
    file: 'return.ts',
    budget: 9_000,
    without: [tag('paykit-pay-button'), tag('paykit-connect-button'), /\/oauth\/authorize/, ...DIAGNOSTICS],
  },
  {
    name: 'paykit: headless startCheckout + handleReturn (no element)',
    file: 'headless.ts',
    without: [
      tag('paykit-pay-button'),
      tag('paykit-connect-button'),
      tag('paykit-return'),
      /litHtmlVersions|litElementVersions/,
      ...DIAGNOSTICS,
    ],
  },
  // Not budgeted: what a developer's dev server loads (paykit's diagnostics and Lit's dev mode).
  { name: 'development build: all elements (not budgeted)', file: 'all.ts', development: true },
  { name: 'floor: bare one-property Lit element', file: 'bare-lit.ts' },
  { name: 'comparison: @auth0/auth0-spa-js (redirect + callback)', file: 'auth0.ts' },
  { name: 'comparison: oidc-client-ts (signinRedirect + signinCallback)', file: 'oidc.ts' },
];

/**
 * Bundles one entry of `entries/` into one minified ES module (with the `development` condition if asked), as
 * Vite's defaults minify it for an npm user, or as the production script-tag file is minified (`scriptTag`).
 */
export async function bundle(file: string, development = false, scriptTag = false): Promise<Buffer> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    root: new URL('.', import.meta.url).pathname,
    ...(development ? { resolve: { conditions: ['module', 'browser', 'development'] } } : {}),
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      lib: { entry: new URL(`./entries/${file}`, import.meta.url).pathname, formats: ['es'], fileName: 'bundle' },
      rolldownOptions: { output: { minify: true, ...(scriptTag ? scriptTagOutput : {}), codeSplitting: false } },
    },
  })) as Rollup.RollupOutput[] | Rollup.RollupOutput;
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => o.output).filter((o) => o.type === 'chunk');
  return Buffer.from(chunks.map((c) => c.code).join('\n'));
}

/**
 * Bundles and measures one entry; `without` lists strings that must not be in it. A development bundle must
 * carry every diagnostic (else the condition did not select the development module, and the figure is wrong).
 */
export async function measureBundle(
  file: string,
  without: readonly RegExp[] = [],
  development = false,
  scriptTag = false,
): Promise<Omit<BundleSize, 'name'>> {
  const code = await bundle(file, development, scriptTag);
  const text = code.toString('utf8');
  const missing = development ? DIAGNOSTICS.filter((marker) => !marker.test(text)).map((m) => `missing ${m}`) : [];
  return {
    leaks: [...without.filter((marker) => marker.test(text)).map(String), ...missing],
    minified: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** Measures every entry. */
export async function measureBundles(): Promise<BundleSize[]> {
  const sizes: BundleSize[] = [];
  for (const entry of ENTRIES)
    sizes.push({
      name: entry.name,
      ...(await measureBundle(entry.file, entry.without, entry.development, entry.scriptTag)),
      ...(entry.budget ? { budget: entry.budget } : {}),
    });
  return sizes;
}
