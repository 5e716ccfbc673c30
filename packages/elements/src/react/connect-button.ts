'use client';
/**
 * `<ConnectButton>`: `<paykit-connect-button>` for React, with its events as typed props. Importing this file
 * defines the element.
 */
import { createComponent, type EventName } from '@lit/react';
import React from 'react';
import type {
  PaykitCancelEvent,
  PaykitConnectDeniedEvent,
  PaykitConnectedEvent,
  PaykitConnectEvent,
  PaykitErrorEvent,
} from '../events.js';
import { PaykitConnectButton } from '../connect/define.js';

/**
 * `<paykit-connect-button>` as a React component: properties as props (`popup` and `endpoint` connect in a popup),
 * `onPaykitConnect` and `onPaykitError`, and with `popup` `onPaykitConnected`, `onPaykitConnectDenied`,
 * `onPaykitCancel`.
 */
export const ConnectButton = createComponent({
  tagName: 'paykit-connect-button',
  elementClass: PaykitConnectButton,
  react: React,
  displayName: 'ConnectButton',
  events: {
    onPaykitConnect: 'paykit-connect' as EventName<PaykitConnectEvent>,
    onPaykitError: 'paykit-error' as EventName<PaykitErrorEvent>,
    onPaykitConnected: 'paykit-connected' as EventName<PaykitConnectedEvent>,
    onPaykitConnectDenied: 'paykit-connect-denied' as EventName<PaykitConnectDeniedEvent>,
    onPaykitCancel: 'paykit-cancel' as EventName<PaykitCancelEvent>,
  },
});
