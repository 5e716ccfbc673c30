/**
 * Bytes a merchant page downloads: each entry bundled by Vite (Lit inside, minified, ES module), then gzip -9
 * and brotli (quality 11), beside a bare Lit element built the same way and two OAuth SDKs as comparisons.
 * Production bundles are budgeted and must carry none of the development build's diagnostics; the development
 * build (the `development` condition, as a dev server resolves it) is measured, not budgeted, and must carry them.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';
import { BUILD_TARGET } from '../packages/elements/browsers.js';
import { unsupportedApis } from './compat.js';
import { scriptTagIifeOutput, scriptTagInput, scriptTagOutput } from '../packages/elements/script-tag-minify.js';

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

/**
 * Words of the development build's diagnostics (packages/elements/src/dev): none may reach a production bundle,
 * lazy chunks included (the drop-in's Content-Security-Policy advice, the blocked popup's).
 */
export const DIAGNOSTICS: readonly RegExp[] = [
  /\[paykit\]/,
  /allowedOrigins/,
  /publicOrigin/,
  /has no endpoint/,
  /frame-src/,
  /trusted-types lit-html paykit-drop-in/,
  /could not open its popup/,
  /is inside a frame/,
  /not a secure context/,
  /paykit never rounds a price/,
  /merchantView hook of createPaykitHandler/,
];

/**
 * When each lazy chunk of the elements is fetched, by its name (Rolldown names a chunk after the module that
 * starts it): the bench reports every chunk on its own row.
 */
export const LAZY_CHUNKS: Readonly<Record<string, string>> = {
  'handle-connect-return': "a platform's OAuth callback page only",
  'start-connect': 'pages with a connect button',
  'connect-attempts': 'pages with a connect button, and OAuth callback pages',
  popup: 'pages with a popup connect button',
  'popup-messages': 'pages with a popup connect button, and OAuth callback pages',
  'drop-in': 'the first click of a drop-in pay button',
  framed: 'pages inside a frame (an iframe)',
  'confirm-return': 'return pages, when <paykit-return> starts its check',
  'handle-return': 'return pages, with the check above; a drop-in payment, on its confirmation',
  'create-checkout': 'pages with a pay button, as the button joins the page',
  'refund-confirm': 'a merchant\'s payments, when a detail\'s "Refund…" is pressed',
};

/**
 * How a bundle is built: `npm` with Vite's default minification, as a merchant's build bundles a per-element
 * entry; `script-tag` as `dist/paykit.js` ships, `iife` as `dist/paykit.iife.js` (one classic script, its lazy
 * chunk inlined), both minified by packages/elements/script-tag-minify.ts.
 */
export type Form = 'npm' | 'script-tag' | 'iife';

/** The entries, their budgets (bytes of gzip; 1 kB = 1000 bytes, the strict reading). */
export const ENTRIES: readonly {
  name: string;
  file: string;
  budget?: number;
  without?: readonly RegExp[];
  /** Resolve with the `development` condition (the development build). */
  development?: boolean;
  /** Built as a shipped script-tag file is (see {@link Form}); default `npm`. */
  form?: Form;
  /**
   * The lazy chunks its elements fetch as soon as they join the page (not on a click): reported with the entry as
   * what such a page downloads before anyone clicks, so that moving code into them is never mistaken for a saving.
   */
  joins?: readonly string[];
}[] = [
  {
    name: 'paykit: all elements (script tag)',
    file: 'all.ts',
    budget: 10_000,
    without: DIAGNOSTICS,
    form: 'script-tag',
    joins: ['create-checkout', 'start-connect', 'confirm-return'],
  },
  // Not budgeted (reported): the classic script cannot split, so it carries the OAuth callback's code inline.
  { name: 'paykit: all elements (classic script, paykit.iife.js)', file: 'all.ts', without: DIAGNOSTICS, form: 'iife' },
  {
    name: 'paykit: pay button alone',
    file: 'pay-button.ts',
    budget: 8_500,
    without: [tag('paykit-connect-button'), tag('paykit-return'), /\/oauth\//, ...DIAGNOSTICS],
    joins: ['create-checkout'],
  },
  {
    name: 'paykit: connect button alone',
    file: 'connect-button.ts',
    budget: 8_500,
    without: [tag('paykit-pay-button'), tag('paykit-return'), /\/payment-requests/, ...DIAGNOSTICS],
    joins: ['start-connect'],
  },
  {
    name: 'paykit: return handler alone',
    file: 'return.ts',
    budget: 8_500,
    without: [tag('paykit-pay-button'), tag('paykit-connect-button'), /\/oauth\/authorize/, ...DIAGNOSTICS],
    joins: ['confirm-return'],
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
  // The merchant views (issue 38): a platform's pages only, each its own entry, none of it in paykit.js.
  {
    name: 'paykit: connection view alone (with its connect button)',
    file: 'connection.ts',
    budget: 12_000,
    without: [tag('paykit-pay-button'), tag('paykit-return'), /\/payment-requests/, ...DIAGNOSTICS],
    joins: ['start-connect'],
  },
  {
    name: 'paykit: merchant payments view alone',
    file: 'merchant-payments.ts',
    budget: 12_000,
    without: [tag('paykit-pay-button'), tag('paykit-connect-button'), tag('paykit-return'), ...DIAGNOSTICS],
  },
  {
    name: 'paykit: merchant payouts view alone',
    file: 'merchant-payouts.ts',
    budget: 12_000,
    without: [tag('paykit-pay-button'), tag('paykit-connect-button'), tag('paykit-return'), ...DIAGNOSTICS],
  },
  // Not budgeted: what a developer's dev server loads (paykit's diagnostics and Lit's dev mode).
  { name: 'development build: all elements (not budgeted)', file: 'all.ts', development: true },
  { name: 'floor: bare one-property Lit element', file: 'bare-lit.ts' },
  { name: 'comparison: @auth0/auth0-spa-js (redirect + callback)', file: 'auth0.ts' },
  { name: 'comparison: oidc-client-ts (signinRedirect + signinCallback)', file: 'oidc.ts' },
];

/** One entry's bundle: what the page fetches first (in how many files), and each of its lazy chunks. */
export interface Bundle {
  first: Buffer;
  /** Files the page fetches before anything runs: the entry and its static imports. A script-tag file must be one. */
  firstFiles: number;
  /** The same files, each on its own (`first` joins them). */
  firstChunks: { name: string; code: Buffer }[];
  /** Each lazy chunk, with the names of the chunks it imports statically (fetched with it). */
  lazy: { name: string; code: Buffer; imports: string[] }[];
}

/**
 * Bundles one entry of `entries/` into minified ES modules (with the `development` condition if asked), as
 * Vite's defaults minify it for an npm user, or as a production script-tag file is built (see {@link Form}).
 * Chunks are split as Vite splits them for a merchant's build and for `dist/paykit.js`: a dynamic `import()`
 * becomes a lazy chunk, fetched only when the code that imports it runs (unless `split` is false: one chunk).
 */
export async function bundleChunks(
  file: string,
  development = false,
  form: Form = 'npm',
  split = true,
): Promise<Bundle> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    root: new URL('.', import.meta.url).pathname,
    ...(development ? { resolve: { conditions: ['module', 'browser', 'development'] } } : {}),
    build: {
      write: false,
      minify: true,
      // As the script-tag files are built: for the supported browsers (packages/elements/browsers.ts).
      target: BUILD_TARGET,
      lib: {
        entry: new URL(`./entries/${file}`, import.meta.url).pathname,
        name: 'Paykit',
        formats: [form === 'iife' ? 'iife' : 'es'],
        fileName: 'bundle',
      },
      rolldownOptions: {
        ...(form === 'script-tag' ? scriptTagInput : {}),
        output: {
          minify: true,
          ...(form === 'script-tag' ? scriptTagOutput : form === 'iife' ? scriptTagIifeOutput : {}),
          ...(split ? {} : { codeSplitting: false }),
        },
      },
    },
  })) as Rollup.RollupOutput[] | Rollup.RollupOutput;
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => o.output).filter((o) => o.type === 'chunk');
  // What the page's <script> fetches first: the entry and its static imports. A dynamic import() is a lazy chunk.
  const first = new Set<string>();
  const visit = (name: string) => {
    if (first.has(name)) return;
    first.add(name);
    chunks.find((c) => c.fileName === name)?.imports.forEach(visit);
  };
  chunks.filter((c) => c.isEntry).forEach((c) => visit(c.fileName));
  const join = (list: Rollup.OutputChunk[]) => Buffer.from(list.map((c) => c.code).join('\n'));
  return {
    first: join(chunks.filter((c) => first.has(c.fileName))),
    firstFiles: first.size,
    firstChunks: chunks.filter((c) => first.has(c.fileName)).map((c) => ({ name: c.name, code: Buffer.from(c.code) })),
    lazy: chunks
      .filter((c) => !first.has(c.fileName))
      .map((c) => ({
        name: c.name,
        code: Buffer.from(c.code),
        imports: c.imports
          .filter((file) => !first.has(file))
          .map((file) => chunks.find((o) => o.fileName === file)!.name),
      })),
  };
}

/** Sizes of one piece of code. */
function sizesOf(code: Buffer): Pick<BundleSize, 'minified' | 'gzip' | 'brotli'> {
  return {
    minified: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/**
 * Bundles one entry into one file (lazy chunks inlined), for a test page that serves it alone
 * (browser-timing.ts); the sizes are measured from {@link bundleChunks}.
 */
export async function bundle(file: string): Promise<Buffer> {
  const { first, lazy } = await bundleChunks(file, false, 'npm', false);
  return Buffer.concat([first, ...lazy.map((chunk) => chunk.code)]);
}

/**
 * Bundles and measures one entry: what the page fetches first and, apart, each lazy chunk (`lazy`, empty when
 * there are none). `without` lists strings that must be in none of them. A development bundle must carry every
 * diagnostic (else the condition did not select the development module, and the figure is wrong). A script-tag
 * file must be one file: a static import of another chunk is a second request on every page, and is reported.
 * With `compat`, every chunk must use only browser APIs that all supported browsers have (bench/compat.ts): our
 * code and what it bundles, Lit included.
 */
export async function measureBundle(
  file: string,
  without: readonly RegExp[] = [],
  development = false,
  form: Form = 'npm',
  compat = false,
): Promise<
  Omit<BundleSize, 'name'> & {
    lazy: { name: string; imports: string[]; sizes: Pick<BundleSize, 'minified' | 'gzip' | 'brotli'> }[];
  }
> {
  const { first, firstFiles, firstChunks, lazy } = await bundleChunks(file, development, form);
  const text = [first, ...lazy.map((chunk) => chunk.code)].map((code) => code.toString('utf8')).join('\n');
  const missing = development ? DIAGNOSTICS.filter((marker) => !marker.test(text)).map((m) => `missing ${m}`) : [];
  const split =
    form === 'script-tag' && firstFiles > 1 ? [`paykit.js imports ${firstFiles - 1} other file(s) at load`] : [];
  const apis = compat
    ? [...firstChunks, ...lazy].flatMap((chunk) => unsupportedApis(chunk.code.toString('utf8'), chunk.name))
    : [];
  return {
    leaks: [...without.filter((marker) => marker.test(text)).map(String), ...missing, ...split, ...apis],
    ...sizesOf(first),
    lazy: lazy.map((chunk) => ({ name: chunk.name, imports: chunk.imports, sizes: sizesOf(chunk.code) })),
  };
}

/**
 * Measures every entry. An entry with lazy chunks gives a row for each (`<name>: lazy chunk <chunk>, <when it is
 * fetched>`), without a budget: its budget is on what the page fetches first, and a lazy chunk is fetched only by
 * the page that runs it (see {@link LAZY_CHUNKS}).
 */
export async function measureBundles(): Promise<BundleSize[]> {
  const sizes: BundleSize[] = [];
  for (const entry of ENTRIES) {
    // Ours (and Lit, which ours bundle) must run in every supported browser; the comparisons are not ours.
    const ours = !entry.name.startsWith('comparison');
    const { lazy, ...size } = await measureBundle(entry.file, entry.without, entry.development, entry.form, ours);
    sizes.push({ name: entry.name, ...size, ...(entry.budget ? { budget: entry.budget } : {}) });
    for (const chunk of lazy)
      sizes.push({
        name: `${entry.name}: lazy chunk ${chunk.name}, ${LAZY_CHUNKS[chunk.name] ?? 'shared by the lazy chunks above'} (not budgeted)`,
        ...chunk.sizes,
        leaks: [],
      });
    if (entry.joins) {
      // The chunks named, and what they import statically: each file as the page fetches it (compressed alone).
      const names = new Set<string>();
      const add = (name: string) => {
        const chunk = lazy.find((c) => c.name === name);
        if (!chunk || names.has(name)) return;
        names.add(name);
        chunk.imports.forEach(add);
      };
      entry.joins.forEach(add);
      const files = [size, ...lazy.filter((c) => names.has(c.name)).map((c) => c.sizes)];
      const sum = (key: 'minified' | 'gzip' | 'brotli') => files.reduce((total, file) => total + file[key], 0);
      sizes.push({
        name: `${entry.name}, with the chunks it fetches as it joins the page (${[...names].join(', ')}; not budgeted)`,
        minified: sum('minified'),
        gzip: sum('gzip'),
        brotli: sum('brotli'),
        leaks: [],
      });
    }
  }
  return sizes;
}
