/**
 * {@link handleReturn} as the package's entries and `<paykit-return>` use it: the same function, whose code (the
 * reference checks, the status calls and their retries) is a lazy chunk. A shop's pages with pay buttons never
 * download it; a return page fetches it when `<paykit-return>` starts its check.
 */
import type { PaymentStatus } from '../types.js';
import type { HandleReturnOptions } from './handle-return.js';

/**
 * Resolves with the status the backend confirms for the payment this page's URL names. See `handle-return.ts`:
 * this loads it, then calls it.
 */
export async function handleReturn(options: HandleReturnOptions): Promise<PaymentStatus> {
  return (await import('./handle-return.js')).handleReturn(options);
}
