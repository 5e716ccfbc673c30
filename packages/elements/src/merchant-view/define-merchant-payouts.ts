/** Registers `<paykit-merchant-payouts>`. Importing this file is the side effect. */
import { PaykitMerchantPayouts } from './merchant-payouts.js';

if (!customElements.get('paykit-merchant-payouts'))
  customElements.define('paykit-merchant-payouts', PaykitMerchantPayouts);

export { PaykitMerchantPayouts };
