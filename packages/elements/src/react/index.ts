'use client';
/**
 * `@paykit/elements/react`: every paykit element as a React component (`@lit/react`), events as typed
 * `onPaykit…` props. Import `@paykit/elements/react/pay-button` (or `/connect-button`, `/return`) to load one
 * element only.
 *
 * @packageDocumentation
 */
export { ConnectButton } from './connect-button.js';
export { PayButton } from './pay-button.js';
export { PaykitReturn } from './return.js';
