'use client';
/**
 * `<PaykitReturn>`: `<paykit-return>` for React, with its events as typed props. Importing this file defines the
 * element.
 */
import { createComponent } from '@lit/react';
import React from 'react';
import { eventProps } from './event-props.js';
import { PaykitReturn as PaykitReturnElement } from '../return/define.js';

/** `<paykit-return>` as a React component: properties as props, one `onPaykit…` prop per event it fires. */
export const PaykitReturn = createComponent({
  tagName: 'paykit-return',
  elementClass: PaykitReturnElement,
  react: React,
  displayName: 'PaykitReturn',
  events: eventProps({
    onPaykitPaymentCompleted: 'paykit-payment-completed',
    onPaykitPaymentFailed: 'paykit-payment-failed',
    onPaykitConnected: 'paykit-connected',
    onPaykitConnectDenied: 'paykit-connect-denied',
    onPaykitError: 'paykit-error',
  }),
});
