/** Registers `<paykit-connection>` (and the `<paykit-connect-button>` it shows). Importing this file is the side effect. */
import { PaykitConnection } from './connection.js';

if (!customElements.get('paykit-connection')) customElements.define('paykit-connection', PaykitConnection);

export { PaykitConnection };
