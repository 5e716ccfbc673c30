/** Registers `<paykit-connect-button>`. Importing this file is the side effect. */
import { PaykitConnectButton } from './connect-button.js';

if (!customElements.get('paykit-connect-button')) customElements.define('paykit-connect-button', PaykitConnectButton);

export { PaykitConnectButton };
