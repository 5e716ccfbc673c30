/**
 * The demo shop's pages: plain HTML that loads paykit with one `<script>` tag, as a merchant site would.
 * No inline script or style, so the pages run under a strict Content-Security-Policy.
 */
import type { Product } from './catalogue.js';
import { SHOP_DATA_ID, type ShopData } from './examples/shop-data.js';
import { formatPrice } from '@paykit/core';

/** Escapes text for HTML content and attribute values. */
export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The frame of every demo page: one stylesheet, one script tag, no inline script or style. The script is the
 * script-tag build of paykit unless a page brings its own bundle.
 */
export function layout(title: string, body: string, script = '/assets/paykit.js'): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>${escape(title)} · Demo Store</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/assets/store.css" />
    <script type="module" src="${escape(script)}"></script>
  </head>
  <body>
    <header class="site">
      <a href="/" class="brand">Demo Store</a>
      <nav aria-label="Demo">
        <a href="/">Shop</a><a href="/orders">Orders</a><a href="/platform">Marketplace</a><a href="/themes">Themes</a>
      </nav>
      <span class="tag">paykit demo · sandbox, no real money</span>
    </header>
    <main>${body}</main>
  </body>
</html>`;
}

function price(product: Product): string {
  return formatPrice(product.amount, product.currency);
}

/**
 * The product whose own page pays in the payment service's drop-in overlay (`<paykit-pay-button drop-in>`) and
 * stays there: the confirmed outcome shows under the button. Its card on the store page redirects, as the others.
 */
export const DROP_IN_SKU = 'sku-mug';

/** A product's pay button: its amount is what the shopper sees; the server decides the price again. */
function payButton(product: Product, checkoutOrigin: string, dropIn = false): string {
  return `<paykit-pay-button
          endpoint="/paykit"
          reference="${escape(product.sku)}"
          amount="${escape(product.amount)}"
          currency="${escape(product.currency)}"
          purpose="${escape(product.name)}"
          checkout-origins="${escape(checkoutOrigin)}"${dropIn ? '\n          drop-in' : ''}
          >Buy ${escape(product.name)}</paykit-pay-button
        >`;
}

/** The path of a product's page. */
export function productPath(product: Product): string {
  return `/products/${encodeURIComponent(product.sku)}`;
}

/** The store: one pay button per product. The button's amount is what the shopper sees; the server checks it. */
export function storePage(products: readonly Product[], checkoutOrigin: string): string {
  const cards = products
    .map(
      (product) => `
      <article class="product" data-sku="${escape(product.sku)}">
        <h2><a href="${escape(productPath(product))}">${escape(product.name)}</a></h2>
        <p>${escape(product.description)}</p>
        <p class="price">${escape(price(product))}</p>
        ${payButton(product, checkoutOrigin)}
      </article>`,
    )
    .join('');
  return layout(
    'Shop',
    `<h1>Shop</h1>
    <p class="lead">A platform? See <a href="/platform">Acme Marketplace</a>. Embedded in someone else's page: <a href="/site-builder">in an iframe</a>. Theming: <a href="/themes">three themes</a>. The same shop in <a href="/react">React</a> and <a href="/vue">Vue</a>. Pay on the sandbox checkout with "Pay" or "Fail"; you come back to a page that asks the shop's
    server for the real outcome. <a href="/orders">Orders</a> lists what the webhooks confirmed.</p>
    <section class="products">${cards}</section>`,
  );
}

/**
 * One product on its own page, with the same pay button as the shop's card; the {@link DROP_IN_SKU} product's
 * opens the checkout over the page instead (the page's policy allows the sandbox's script and frame for it).
 */
export function productPage(product: Product, checkoutOrigin: string): string {
  const dropIn = product.sku === DROP_IN_SKU;
  return layout(
    product.name,
    `<p class="crumbs"><a href="/">Shop</a> / ${escape(product.name)}</p>
    <article class="product product-page" data-sku="${escape(product.sku)}">
      <h1>${escape(product.name)}</h1>
      <p>${escape(product.description)}</p>
      <p class="price">${escape(price(product))}</p>
      ${payButton(product, checkoutOrigin, dropIn)}
      <p class="small">${
        dropIn
          ? "You pay in the payment provider's checkout, over this page, and stay here: the result shows under the button once the shop's server has confirmed it."
          : "You pay on the payment provider's page and come back here. Nothing is charged until you confirm there."
      }</p>
    </article>`,
  );
}

/**
 * The shop's "embed code" page: one product card and its pay button, with nothing around it, for another page to
 * put in an iframe (a site builder, a blog). The checkout refuses to be framed: the button takes the top window
 * there, or opens it in a new tab when the iframe's sandbox forbids that.
 */
export function embedPage(product: Product, checkoutOrigin: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>${escape(product.name)} · Demo Store</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/assets/store.css" />
    <script type="module" src="/assets/paykit.js"></script>
  </head>
  <body class="embed">
    <main>
      <article class="product" data-sku="${escape(product.sku)}">
        <h1>${escape(product.name)}</h1>
        <p class="price">${escape(price(product))}</p>
        ${payButton(product, checkoutOrigin)}
      </article>
    </main>
  </body>
</html>`;
}

/**
 * The sandbox values the site-builder page offers, as site builders and blogs frame embed code: none, one that
 * lets a click take the top window, one that only lets the embed open tabs, and one that allows neither.
 */
export const EMBED_SANDBOXES: Readonly<Record<string, string | undefined>> = {
  none: undefined,
  'top-navigation': 'allow-scripts allow-same-origin allow-forms allow-top-navigation-by-user-activation',
  popups: 'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox',
  neither: 'allow-scripts allow-same-origin allow-forms',
};

/**
 * Someone else's page with the shop's embed code in an iframe (`/embed/<sku>` on the shop's own origin,
 * `shopUrl`; with `connect`, the marketplace's connect button, `/platform/embed`), sandboxed as `sandbox` (a key of {@link EMBED_SANDBOXES}) says. Opened on another origin of this
 * machine (`http://localhost:<port>` for a shop on 127.0.0.1) it is a page of another site, as a site builder's is.
 */
export function siteBuilderPage(shopUrl: string, product: Product, sandbox: string, connect = false): string {
  const value = EMBED_SANDBOXES[sandbox];
  const choices = Object.keys(EMBED_SANDBOXES)
    .map((key) =>
      key === sandbox
        ? `<strong>${escape(key)}</strong>`
        : `<a href="?sandbox=${escape(key)}${connect ? '&amp;embed=connect' : ''}">${escape(key)}</a>`,
    )
    .join(' · ');
  return layout(
    'A page that embeds the shop',
    `<h1>A page that embeds the shop</h1>
    <p class="lead">A blog or a site builder's page with the shop's embed code in an iframe${
      value === undefined ? '' : ` sandboxed as <code>${escape(value)}</code>`
    }. The checkout refuses to be framed: the pay button takes this whole window there, or, when the sandbox
    forbids it, opens it in a new tab. Sandbox: ${choices}. Open this page on <code>localhost</code> for a frame of
    another origin.</p>
    <iframe class="embed" title="${connect ? 'Acme Marketplace: connect' : `Demo Store: ${escape(product.name)}`}" src="${escape(
      connect ? `${shopUrl}/platform/embed` : `${shopUrl}/embed/${encodeURIComponent(product.sku)}`,
    )}"${value === undefined ? '' : ` sandbox="${escape(value)}"`}></iframe>`,
  );
}

/** The return page: `<paykit-return>` reads `reference` and asks the shop's server for the real status. */
export function returnPage(): string {
  return layout(
    'Your payment',
    `<h1>Your payment</h1>
    <paykit-return endpoint="/paykit"></paykit-return>
    <p><a href="/">Back to the shop</a></p>`,
  );
}

/** Theming: the same pay button under a light, a dark and a brand-coloured set of `--paykit-*` tokens. */
export function themesPage(checkoutOrigin: string): string {
  const button = (label: string) =>
    `<paykit-pay-button endpoint="/paykit" reference="sku-mug" amount="12.50" currency="SGD"
      checkout-origins="${escape(checkoutOrigin)}">${escape(label)}</paykit-pay-button>`;
  return layout(
    'Themes',
    `<h1>Themes</h1>
    <p class="lead">Every paykit element reads the same tokens: <code>--paykit-accent</code>,
    <code>--paykit-on-accent</code>, <code>--paykit-radius</code>, <code>--paykit-font</code>,
    <code>--paykit-focus-ring</code>, <code>--paykit-error-color</code>. Parts (<code>::part(button)</code>) allow more.</p>
    <section class="themes">
      <div class="theme theme-light"><h2>Light</h2>${button('Buy the mug')}</div>
      <div class="theme theme-dark"><h2>Dark</h2>${button('Buy the mug')}</div>
      <div class="theme theme-brand"><h2>Brand</h2>${button('Buy the mug')}</div>
    </section>`,
  );
}

/** The frameworks the demo shows paykit in (`/react`, `/vue`), each a Vite-built app in demo/examples. */
export const FRAMEWORK_EXAMPLES = {
  react: { name: 'React', how: 'the <code>PayButton</code> wrapper from <code>@paykit/elements/react</code>' },
  vue: { name: 'Vue', how: '<code>&lt;paykit-pay-button&gt;</code> used directly, as Vue uses any custom element' },
} as const;

/** A framework the demo has an example for. */
export type Framework = keyof typeof FRAMEWORK_EXAMPLES;

/**
 * The shop as a framework app renders it. The products and the checkout origin travel in a JSON data block
 * (never run, so the strict policy allows it); `<` is escaped so that no value can close the script element.
 */
export function frameworkPage(framework: Framework, products: readonly Product[], checkoutOrigin: string): string {
  const example = FRAMEWORK_EXAMPLES[framework];
  const data: ShopData = {
    checkoutOrigin,
    products: products.map((product) => ({ ...product, price: price(product) })),
  };
  const others = Object.entries(FRAMEWORK_EXAMPLES)
    .filter(([key]) => key !== framework)
    .map(([key, other]) => `<a href="/${key}">${other.name}</a>`)
    .join(', ');
  return layout(
    `Shop in ${example.name}`,
    `<h1>Shop in ${example.name}</h1>
    <p class="lead">The same shop, rendered by ${example.name} with ${example.how}. Also in: <a href="/">plain HTML</a>, ${others}.</p>
    <script type="application/json" id="${SHOP_DATA_ID}">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>
    <div id="app"></div>`,
    `/assets/examples/${framework}.js`,
  );
}
