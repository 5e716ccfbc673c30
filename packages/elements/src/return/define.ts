/** Registers `<paykit-return>`. Importing this file is the side effect. */
import { PaykitReturn } from './return-status.js';

if (!customElements.get('paykit-return')) customElements.define('paykit-return', PaykitReturn);

export { PaykitReturn };
