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
import { createComponent } from '@lit/react';
import React from 'react';
import { eventProps } from './event-props.js';
import { PaykitPayButton } from '../pay-button/define.js';

const Component = createComponent({
  tagName: 'paykit-pay-button',
  elementClass: PaykitPayButton,
  react: React,
  displayName: 'PayButton',
  events: eventProps({
    onPaykitCheckout: 'paykit-checkout',
    onPaykitError: 'paykit-error',
    // With `dropIn`: the overlay closed, or (without `returnUrl`) the payment made in it, confirmed.
    onPaykitCancel: 'paykit-cancel',
    onPaykitPaymentCompleted: 'paykit-payment-completed',
    onPaykitPaymentFailed: 'paykit-payment-failed',
  }),
});

/**
 * `<paykit-pay-button>` as a React component: properties as props (`dropIn={true}` opens the drop-in), and
 * `onPaykitCheckout`, `onPaykitError`, and with `dropIn` `onPaykitCancel`, `onPaykitPaymentCompleted`,
 * `onPaykitPaymentFailed`.
 * `checkoutOrigins` is required (`@lit/react` makes every property optional; without it a click sends nothing).
 */
// `@lit/react` makes every property optional; the cast only makes `checkoutOrigins` required again.
export const PayButton = Component as React.ForwardRefExoticComponent<
  React.ComponentProps<typeof Component> & { checkoutOrigins: string }
>;
