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
import type { PaykitCheckoutEvent, PaykitErrorEvent } from '../events.js';
import { PaykitPayButton } from '../pay-button/define.js';

const Component = createComponent({
  tagName: 'paykit-pay-button',
  elementClass: PaykitPayButton,
  react: React,
  displayName: 'PayButton',
  events: {
    onPaykitCheckout: 'paykit-checkout' as EventName<PaykitCheckoutEvent>,
    onPaykitError: 'paykit-error' as EventName<PaykitErrorEvent>,
  },
});

/**
 * `<paykit-pay-button>` as a React component: properties as props, `onPaykitCheckout` and `onPaykitError`.
 * `checkoutOrigins` is required (`@lit/react` makes every property optional; without it a click sends nothing).
 */
export const PayButton = Component as React.ForwardRefExoticComponent<
  React.ComponentProps<typeof Component> & { checkoutOrigins: string }
>;
