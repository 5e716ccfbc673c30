/**
 * The headless pay flow: ask the merchant's backend for a payment request, then check where it says to go, or
 * (with `dropIn`) open it in the payment service's drop-in overlay. `<paykit-pay-button>` is built on it; SPA code
 * can call it directly.
 */
import type { CheckoutStarted } from '../types.js';
import { loadCheckout } from './lazy-create-checkout.js';
import { loadDropIn } from './lazy-drop-in.js';
import type { CheckoutInPlace, DropInScript, StartCheckoutOptions } from './types.js';

export type { CheckoutInPlace, DropInScript, StartCheckoutOptions } from './types.js';

/**
 * Creates the payment request through the backend and returns it with its checkout URL checked: `https:`
 * (or `http:` on localhost), on one of `checkoutOrigins`. Throws `PaykitError` (`unsafe_url` for any other URL).
 * Sends nothing without an `endpoint` (`validation_failed`), with an empty or unparsable `checkoutOrigins`
 * (`unsafe_url`), or with an `amount` that has more decimals than its `currency` (`validation_failed`, whose
 * `errors` name the currency: JPY has none). With `dropIn`, opens it in the drop-in overlay and resolves when the overlay is done with it
 * (see {@link CheckoutInPlace}).
 */
export async function startCheckout(options: StartCheckoutOptions & { dropIn: DropInScript }): Promise<CheckoutInPlace>;
export async function startCheckout(options: StartCheckoutOptions): Promise<CheckoutStarted>;
export async function startCheckout(options: StartCheckoutOptions): Promise<CheckoutStarted> {
  return wantsDropIn(options.dropIn)
    ? // The drop-in's code is fetched only by a page that opens it. wantsDropIn narrowed `options.dropIn`, which
      // TypeScript does not carry over to `options`.
      (await loadDropIn()).checkoutInPlace(options as StartCheckoutOptions & { dropIn: DropInScript })
    : (await loadCheckout()).createCheckout(options);
}

/** True when a `dropIn` option or attribute asks for the drop-in: `true`, `''` (an attribute without value) or a URL. */
export function wantsDropIn(value: DropInScript | false | null | undefined): value is DropInScript {
  return value === '' || !!value;
}
