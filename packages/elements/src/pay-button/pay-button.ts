import { BusyButton } from '../busy-button.js';
import { startCheckout } from '../checkout/start-checkout.js';
import { PaykitCheckoutEvent } from '../events.js';
import { text } from '../messages.js';
import type { ShopperChoice } from '../types.js';
import { dev } from '#dev';

/**
 * A button that takes the shopper to the checkout. On click it asks the merchant's backend (`endpoint`) for
 * a payment request, checks that the checkout URL is on one of `checkout-origins`, and navigates there.
 * One click is one payment request: while busy, further clicks are ignored.
 *
 * @tag paykit-pay-button
 * @slot - The label. Default "Pay".
 * @fires paykit-checkout - Before navigating; cancelable. `detail`: `{ id, url }`.
 * @fires paykit-error - When the checkout could not start. `detail`: `{ code, message }`.
 * @csspart button - The native button.
 * @csspart label - The label wrapper.
 * @csspart spinner - Shown while busy.
 * @csspart error - The error message.
 * @cssprop --paykit-accent - Background of the button (system token).
 * @cssprop --paykit-on-accent - Text colour of the button (system token).
 * @cssprop --paykit-radius - Corner radius (system token).
 * @cssprop --paykit-font - Font family (system token).
 * @cssprop --paykit-pay-button-background - Background, over `--paykit-accent`.
 */
export class PaykitPayButton extends BusyButton {
  // Lit adds these to BusyButton's own (its `_busy` and `_error` states): no need to spread them.
  static override properties = {
    endpoint: {},
    amount: {},
    currency: {},
    purpose: {},
    email: {},
    paymentMethods: { attribute: 'payment-methods' },
    reference: {},
    merchant: {},
    checkoutOrigins: { attribute: 'checkout-origins' },
  };

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

  protected get defaultLabel(): string {
    return text(this).pay;
  }

  constructor() {
    super();
    this.endpoint = this.checkoutOrigins = '';
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

  protected async act(): Promise<PaykitCheckoutEvent> {
    dev?.payButton(this);
    const started = await startCheckout({
      endpoint: this.endpoint,
      choice: this.choice,
      checkoutOrigins: words(this.checkoutOrigins),
    });
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
