/**
 * What the server puts in the framework example pages (a JSON data block, which a strict CSP allows because it
 * is never run): the products as the shop shows them and the checkout origin the buttons may send shoppers to.
 */

/** A product as the page shows it. The shop's server decides the price again when the shopper pays. */
export interface ShownProduct {
  readonly sku: string;
  readonly name: string;
  readonly description: string;
  readonly amount: string;
  readonly currency: string;
  /** The price as the shop writes money (`@paykit/core`'s `formatPrice`), so the examples need no formatter of their own. */
  readonly price: string;
}

/** The page's data block. */
export interface ShopData {
  readonly checkoutOrigin: string;
  readonly products: readonly ShownProduct[];
}

/** The id of the `<script type="application/json">` element that carries the {@link ShopData}. */
export const SHOP_DATA_ID = 'shop-data';
