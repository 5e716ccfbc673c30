/**
 * One payment request in the drop-in overlay, as the service's script opens it: `HitPay.init` with the payment
 * URL, the service's hosts and the three callbacks, then `HitPay.toggle({ paymentRequest })`. Resolves with what
 * ended it: `success` or `error` (claims: the caller asks the backend), `close` (the shopper closed it), or
 * `blocked` (the page's Content-Security-Policy refused the overlay's frame: the caller takes the shopper to the
 * checkout page instead). Part of the drop-in's lazy chunk.
 */
import type { CheckoutStarted } from '../types.js';
import type { DropInApi } from './load-drop-in-script.js';

/** How the overlay ended. */
export type DropInEnd = 'success' | 'error' | 'close' | 'blocked';

/** Opens `started` in the overlay of `api` (loaded from `script`) and resolves when it ends. */
export function openDropIn(api: DropInApi, started: CheckoutStarted, script: URL): Promise<DropInEnd> {
  const checkout = new URL(started.url);
  return new Promise((resolve) => {
    let blocked = false;
    // A frame the page's policy refuses would stay blank until the script gives up: closed at once instead.
    const watch = (event: SecurityPolicyViolationEvent) => {
      if (
        /^(frame|child|default)-src/.test(event.effectiveDirective) &&
        [checkout.origin, script.origin].some((origin) => event.blockedURI.startsWith(origin))
      ) {
        blocked = true;
        api.toggle({ paymentRequest: started.id, open: false });
        end('close');
      }
    };
    const end = (how: DropInEnd) => {
      document.removeEventListener('securitypolicyviolation', watch);
      resolve(blocked ? 'blocked' : how);
    };
    document.addEventListener('securitypolicyviolation', watch);
    // Called before each opening: the callbacks are this payment request's, whatever a previous one set.
    api.init(
      started.url,
      {
        // The service's hosts, as its docs pair them (hit-pay.com and api.hit-pay.com); the sandbox uses its own.
        scheme: script.protocol.slice(0, -1),
        domain: script.host,
        apiDomain: `api.${script.host}`,
        // The outcome is shown by the page (or its return page), not left in the overlay.
        closeOnError: true,
      },
      { onSuccess: () => end('success'), onError: () => end('error'), onClose: () => end('close') },
    );
    api.toggle({ paymentRequest: started.id });
  });
}
