'use client';
/**
 * `<PaykitReturn>`: `<paykit-return>` for React, with its events as typed props. Importing this file defines the
 * element.
 */
import { createComponent, type EventName } from '@lit/react';
import React from 'react';
import type {
  PaykitConnectDeniedEvent,
  PaykitConnectedEvent,
  PaykitErrorEvent,
  PaykitPaymentCompletedEvent,
  PaykitPaymentFailedEvent,
} from '../events.js';
import { PaykitReturn as PaykitReturnElement } from '../return/define.js';

/** `<paykit-return>` as a React component: properties as props, one `onPaykit…` prop per event it fires. */
export const PaykitReturn = createComponent({
  tagName: 'paykit-return',
  elementClass: PaykitReturnElement,
  react: React,
  displayName: 'PaykitReturn',
  events: {
    onPaykitPaymentCompleted: 'paykit-payment-completed' as EventName<PaykitPaymentCompletedEvent>,
    onPaykitPaymentFailed: 'paykit-payment-failed' as EventName<PaykitPaymentFailedEvent>,
    onPaykitConnected: 'paykit-connected' as EventName<PaykitConnectedEvent>,
    onPaykitConnectDenied: 'paykit-connect-denied' as EventName<PaykitConnectDeniedEvent>,
    onPaykitError: 'paykit-error' as EventName<PaykitErrorEvent>,
  },
});
