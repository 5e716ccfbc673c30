/**
 * The demo shop's pages: plain HTML that loads paykit with one `<script>` tag, as a merchant site would.
 * No inline script or style, so the pages run under a strict Content-Security-Policy.
 */
import { formatMinor, parseAmount } from '@paykit/core';
import type { Product } from './catalogue.js';

/** Escapes text for HTML content and attribute values. */
export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The frame of every demo page: one stylesheet, one script tag, no inline script or style. */
export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escape(title)} · Demo Store</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/assets/store.css" />
    <script type="module" src="/assets/paykit.js"></script>
  </head>
  <body>
    <header><a href="/" class="brand">Demo Store</a><span class="tag">paykit demo · sandbox</span></header>
    <main>${body}</main>
  </body>
</html>`;
}

function price(product: Product): string {
  const parsed = parseAmount(product.amount);
  return `${product.currency} ${parsed.ok ? formatMinor(parsed.minor) : product.amount}`;
}

/** The store: one pay button per product. The button's amount is what the shopper sees; the server checks it. */
export function storePage(products: readonly Product[], checkoutOrigin: string): string {
  const cards = products
    .map(
      (product) => `
      <article class="product" data-sku="${escape(product.sku)}">
        <h2>${escape(product.name)}</h2>
        <p>${escape(product.description)}</p>
        <p class="price">${escape(price(product))}</p>
        <paykit-pay-button
          endpoint="/paykit"
          reference="${escape(product.sku)}"
          amount="${escape(product.amount)}"
          currency="${escape(product.currency)}"
          purpose="${escape(product.name)}"
          checkout-origins="${escape(checkoutOrigin)}"
          >Buy ${escape(product.name)}</paykit-pay-button
        >
      </article>`,
    )
    .join('');
  return layout(
    'Shop',
    `<h1>Shop</h1>
    <p class="lead">A platform? See <a href="/platform">Acme Marketplace</a>. Theming: <a href="/themes">three themes</a>. Pay on the sandbox checkout with "Pay" or "Fail"; you come back to a page that asks the shop's
    server for the real outcome. <a href="/orders">Orders</a> lists what the webhooks confirmed.</p>
    <section class="products">${cards}</section>`,
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
