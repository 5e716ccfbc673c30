/** Registers `<paykit-merchant-payments>`. Importing this file is the side effect. */
import { PaykitMerchantPayments } from './merchant-payments.js';

if (!customElements.get('paykit-merchant-payments'))
  customElements.define('paykit-merchant-payments', PaykitMerchantPayments);

export { PaykitMerchantPayments };
export { PaykitRefundCompletedEvent } from './view-events.js';
