'use client';
/**
 * `<PayButton>`: `<paykit-pay-button>` for React, with its events as typed props. Importing this file defines
 * the element.
 *
 * @example
 * ```tsx
 * <PayButton endpoint="/paykit" reference="sku-mug" amount="12.50" currency="SGD"
 *   checkoutOrigins="https://checkout.example" onPaykitError={(e) => report(e.detail.code)}>
 *   Buy the mug
 * </PayButton>
 * ```
 */
import { createComponent, type EventName } from '@lit/react';
import React from 'react';
import type {
  PaykitCancelEvent,
  PaykitCheckoutEvent,
  PaykitErrorEvent,
  PaykitPaymentCompletedEvent,
  PaykitPaymentFailedEvent,
} from '../events.js';
import { PaykitPayButton } from '../pay-button/define.js';

const Component = createComponent({
  tagName: 'paykit-pay-button',
  elementClass: PaykitPayButton,
  react: React,
  displayName: 'PayButton',
  events: {
    onPaykitCheckout: 'paykit-checkout' as EventName<PaykitCheckoutEvent>,
    onPaykitError: 'paykit-error' as EventName<PaykitErrorEvent>,
    // With `dropIn`: the overlay closed, or (without `returnUrl`) the payment made in it, confirmed.
    onPaykitCancel: 'paykit-cancel' as EventName<PaykitCancelEvent>,
    onPaykitPaymentCompleted: 'paykit-payment-completed' as EventName<PaykitPaymentCompletedEvent>,
    onPaykitPaymentFailed: 'paykit-payment-failed' as EventName<PaykitPaymentFailedEvent>,
  },
});

/**
 * `<paykit-pay-button>` as a React component: properties as props (`dropIn={true}` opens the drop-in), and
 * `onPaykitCheckout`, `onPaykitError`, and with `dropIn` `onPaykitCancel`, `onPaykitPaymentCompleted`,
 * `onPaykitPaymentFailed`.
 * `checkoutOrigins` is required (`@lit/react` makes every property optional; without it a click sends nothing).
 */
export const PayButton = Component as React.ForwardRefExoticComponent<
  React.ComponentProps<typeof Component> & { checkoutOrigins: string }
>;
