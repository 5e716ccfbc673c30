/** `<paykit-pay-button>`: the shop's pay button, to the hosted checkout or the drop-in. */
import { BusyButton } from '../busy-button.js';
import { loadCheckout } from '../checkout/lazy-create-checkout.js';
import { loadDropIn } from '../checkout/lazy-drop-in.js';
import { startCheckout, wantsDropIn } from '../checkout/start-checkout.js';
import type { DropInScript } from '../checkout/types.js';
import { PaykitCheckoutEvent } from '../events.js';
import { text } from '../messages.js';
import type { ShopperChoice } from '../types.js';
import { prefetch } from '../prefetch.js';
import { dev } from '#dev';

/**
 * A button that takes the shopper to the checkout. On click it asks the merchant's backend (`endpoint`) for
 * a payment request, checks that the checkout URL is on one of `checkout-origins`, and navigates there; with
 * `drop-in`, it opens the payment request in the payment service's drop-in overlay on this page instead, asks the
 * backend for the status when the overlay says it is done, then goes to `return-url` or shows the outcome in place.
 * One click is one payment request: while busy, further clicks are ignored.
 *
 * @tag paykit-pay-button
 * @slot - The label. Default "Pay".
 * @fires paykit-checkout - Before navigating (to the checkout, or with `drop-in` and `return-url` to the return page); cancelable. `detail`: `{ id, url }`.
 * @fires paykit-payment-completed - With `drop-in` and no `return-url`: the backend confirms the payment made in the overlay. `detail`: `{ id, status, amount, currency }`.
 * @fires paykit-payment-failed - Likewise, when it confirms the payment failed or was canceled.
 * @fires paykit-cancel - With `drop-in`: the shopper closed the overlay; the payment request stays pending and the next click opens it again. `detail`: `{ id }`.
 * @fires paykit-error - When the checkout could not start. `detail`: `{ code, message }`.
 * @csspart button - The native button.
 * @csspart label - The label wrapper.
 * @csspart spinner - Shown while busy.
 * @csspart error - The error message.
 * @csspart status - With `drop-in` and no `return-url`: the confirmed outcome of the payment made in the overlay.
 * @cssprop --paykit-accent - Background of the button (system token).
 * @cssprop --paykit-on-accent - Text colour of the button (system token).
 * @cssprop --paykit-radius - Corner radius (system token).
 * @cssprop --paykit-font - Font family (system token).
 * @cssprop --paykit-pay-button-background - Background, over `--paykit-accent`.
 */
export class PaykitPayButton extends BusyButton {
  // Lit adds these to BusyButton's own (its `_busy` and `_error` states): no need to spread them.
  static override get properties() {
    return {
      endpoint: {},
      amount: {},
      currency: {},
      purpose: {},
      email: {},
      paymentMethods: { attribute: 'payment-methods' },
      reference: {},
      merchant: {},
      checkoutOrigins: { attribute: 'checkout-origins' },
      dropIn: { attribute: 'drop-in' },
      returnUrl: { attribute: 'return-url' },
    };
  }

  /** Where the backend's paykit handler is mounted, such as `/paykit`. */
  declare endpoint: string;
  /** The price shown to the shopper (`12.50`). The backend checks it; it never sets the price. */
  declare amount?: string;
  declare currency?: string;
  declare purpose?: string;
  declare email?: string;
  /** Space-separated payment method ids, such as `paynow_online card`. */
  declare paymentMethods?: string;
  /** The merchant's own id of what is bought (a SKU, a cart id). */
  declare reference?: string;
  /** On a platform's page: the connected merchant's business id. */
  declare merchant?: string;
  /**
   * Space-separated origins the checkout may be on, such as `https://checkout.example`. Required: without it a
   * click sends nothing (`unsafe_url`), since the browser cannot know the payment service's checkout host.
   */
  declare checkoutOrigins: string;
  /**
   * Opens the checkout in the payment service's drop-in overlay on this page: present without a value (React:
   * `true`) for the script at `/hitpay.js` on the checkout's origin, or the script's URL, whose origin must be in
   * `checkout-origins`. When the script cannot load (the page's Content-Security-Policy, a blocker, offline) the
   * button takes the shopper to the checkout page as without it. Its code is a lazy chunk, fetched on the first click.
   */
  declare dropIn?: DropInScript | false | null;
  /**
   * With `drop-in`: the return page (with `<paykit-return>`, on this page's origin) the shopper goes to once the
   * backend confirms the payment made in the overlay, with `reference` and `status` added. Without it the button
   * stays on the page: it fires `paykit-payment-completed` or `paykit-payment-failed` and shows the outcome.
   */
  declare returnUrl?: string;

  protected get defaultLabel(): string {
    return text(this).pay;
  }

  constructor() {
    super();
    this.endpoint = this.checkoutOrigins = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The checkout's code (a lazy chunk) is fetched now, so that a click does not wait for it.
    prefetch(loadCheckout);
  }

  /** The shopper's choice as the attributes describe it. */
  get choice(): ShopperChoice {
    const choice: ShopperChoice = {};
    for (const key of ['amount', 'currency', 'purpose', 'email', 'reference', 'merchant'] as const) {
      const value = this[key];
      if (value) choice[key] = value;
    }
    const methods = words(this.paymentMethods);
    if (methods.length > 0) choice.payment_methods = methods;
    return choice;
  }

  protected async act(): Promise<PaykitCheckoutEvent | undefined> {
    dev?.payButton(this);
    const options = { endpoint: this.endpoint, choice: this.choice, checkoutOrigins: words(this.checkoutOrigins) };
    if (wantsDropIn(this.dropIn))
      // The drop-in's code (a lazy chunk) is fetched by the first click of a button that opens it.
      return (await loadDropIn()).payInPlace(this, { ...options, dropIn: this.dropIn });
    const started = await startCheckout(options);
    return new PaykitCheckoutEvent({ id: started.id, url: started.url });
  }
}

function words(text: string | undefined): string[] {
  return (text ?? '').split(/\s+/).filter(Boolean);
}

declare global {
  interface HTMLElementTagNameMap {
    'paykit-pay-button': PaykitPayButton;
  }
}
