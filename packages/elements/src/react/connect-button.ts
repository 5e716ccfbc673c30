/**
 * `<ConnectButton>`: `<paykit-connect-button>` for React, with its events as typed props. Importing this file
 * defines the element.
 */
import { createComponent, type EventName } from '@lit/react';
import React from 'react';
import type { PaykitConnectEvent, PaykitErrorEvent } from '../events.js';
import { PaykitConnectButton } from '../connect/define.js';

/** `<paykit-connect-button>` as a React component: properties as props, `onPaykitConnect` and `onPaykitError`. */
export const ConnectButton = createComponent({
  tagName: 'paykit-connect-button',
  elementClass: PaykitConnectButton,
  react: React,
  displayName: 'ConnectButton',
  events: {
    onPaykitConnect: 'paykit-connect' as EventName<PaykitConnectEvent>,
    onPaykitError: 'paykit-error' as EventName<PaykitErrorEvent>,
  },
});
