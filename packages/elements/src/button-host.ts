/**
 * What a button lets the code of one of its modes do (the frame's, the drop-in's, the popup's: lazy chunks): show an
 * outcome, focus, fire an event, read its settings. A chunk types its button with these, never with the element's
 * class, so that no chunk imports the element that loads it (as Lit's controllers take a `ReactiveControllerHost`).
 */
import type { StartConnectOptions } from './connect/start-connect.js';
import type { ConnectButtonConfig, PayButtonConfig } from './dev/diagnostics-api.js';

/** Any paykit button, as `BusyButton` implements it. */
export interface ButtonHost extends HTMLElement {
  /**
   * Shows an outcome reached on this page below the button, or with `failed` one to act on, as a failure is
   * shown; the button is ready again.
   */
  show(words: string, failed?: boolean): void;
}

/** `<paykit-pay-button>` as its drop-in mode sees it: its settings, `return-url` among them. */
export interface PayButtonHost extends ButtonHost, PayButtonConfig {}

/** `<paykit-connect-button>` as its popup mode sees it: its settings are `startConnect`'s options, name for name. */
export interface ConnectButtonHost extends ButtonHost, ConnectButtonConfig, StartConnectOptions {
  storage?: 'local' | 'session';
}
