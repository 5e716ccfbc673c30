'use client';
/**
 * `<ConnectButton>`: `<paykit-connect-button>` for React, with its events as typed props. Importing this file
 * defines the element.
 */
import { createComponent } from '@lit/react';
import React from 'react';
import { eventProps } from './event-props.js';
import { PaykitConnectButton } from '../connect-button/define.js';

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
  events: eventProps({
    onPaykitConnect: 'paykit-connect',
    onPaykitError: 'paykit-error',
    onPaykitConnected: 'paykit-connected',
    onPaykitConnectDenied: 'paykit-connect-denied',
    onPaykitCancel: 'paykit-cancel',
  }),
});
