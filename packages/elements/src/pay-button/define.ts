/**
 * Registers `<paykit-pay-button>`. Importing this file is the side effect; import `PaykitPayButton` from the
 * package root to register it under another name.
 */
import { PaykitPayButton } from './pay-button.js';

if (!customElements.get('paykit-pay-button')) customElements.define('paykit-pay-button', PaykitPayButton);

export { PaykitPayButton };
