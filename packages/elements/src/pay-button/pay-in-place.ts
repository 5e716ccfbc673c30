/**
 * `<paykit-pay-button drop-in>`'s click: the headless drop-in checkout (checkout-in-place.ts), then what the
 * button does with its end. Confirmed by the backend: go to `return-url` (the return page shows it, as after a
 * redirect), or stay and show it in place with `paykit-payment-completed` / `paykit-payment-failed`. Closed: focus
 * back on the button and `paykit-cancel`. Unavailable, or inside a frame: the checkout page, as without `drop-in`.
 * Part of the drop-in's lazy chunk.
 */
import { dev } from '#dev';
import type { PayButtonHost } from '../button-host.js';
import { checkoutInPlace } from '../checkout/checkout-in-place.js';
import { loadCheckout } from '../checkout/lazy-create-checkout.js';
import type { DropInScript, StartCheckoutOptions } from '../checkout/types.js';
import {
  PaykitCancelEvent,
  PaykitCheckoutEvent,
  PaykitPaymentCompletedEvent,
  PaykitPaymentFailedEvent,
} from '../events.js';
import { text } from '../messages.js';
import { FINAL_STATUSES } from '../return/statuses.js';
import type { PaymentStatus } from '../types.js';

/** Opens the button's checkout in the drop-in; resolves with the navigation the button makes next, if any. */
export async function payInPlace(
  button: PayButtonHost,
  options: StartCheckoutOptions & { dropIn: DropInScript },
): Promise<PaykitCheckoutEvent | undefined> {
  // In a frame, the overlay would be confined to the frame's box (and the checkout's frame-ancestors names this
  // page's origin, not the one above it): the checkout page, in the top window or a new tab (framed/framed.ts).
  if (top !== self) {
    const { id, url } = await (await loadCheckout()).createCheckout(options);
    return new PaykitCheckoutEvent({ id, url });
  }
  const result = await checkoutInPlace(options);
  const { id } = result;
  if (result.dropIn === 'unavailable') {
    dev?.dropInUnavailable(button, result);
    return new PaykitCheckoutEvent({ id, url: result.url });
  }
  button.focus();
  if (result.dropIn === 'closed') {
    button.dispatchEvent(new PaykitCancelEvent({ id }));
    return undefined;
  }
  const next = returnPageOf(button, result, options.choice.merchant);
  if (next) return new PaykitCheckoutEvent({ id, url: next });
  const payment: PaymentStatus = {
    id,
    status: result.status,
    amount: result.amount,
    currency: result.currency,
    ...(result.purpose ? { purpose: result.purpose } : {}),
    ...(result.reference ? { reference: result.reference } : {}),
  };
  const words = text(button);
  if (payment.status === 'completed') {
    button.show(words.completed);
    button.dispatchEvent(new PaykitPaymentCompletedEvent(payment));
  } else if (FINAL_STATUSES.has(payment.status)) {
    button.show(payment.status === 'failed' ? words.failedPayment : words.canceled, true);
    button.dispatchEvent(new PaykitPaymentFailedEvent(payment));
  } else {
    // The overlay said it is paid and the backend does not know yet: never "paid", never "pay again".
    button.show(words.stillConfirming);
  }
  return undefined;
}

/**
 * `return-url` with the confirmed payment's `reference` and `status` (and the `merchant` of a platform's button),
 * as the checkout's redirect adds them; `undefined` without `return-url`, or for one on another origin (refused:
 * the button stays; the development build says why before the click).
 */
function returnPageOf(
  button: PayButtonHost,
  payment: { id: string; status: string },
  merchant: string | undefined,
): string | undefined {
  if (!button.returnUrl) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(button.returnUrl, location.href);
  } catch {
    // Not a URL: refused below, as one on another origin.
  }
  // Checked before the click by the development build, which says why.
  if (url?.origin !== location.origin) return undefined;
  url.searchParams.set('reference', payment.id);
  url.searchParams.set('status', payment.status);
  if (merchant) url.searchParams.set('merchant', merchant);
  return url.href;
}
