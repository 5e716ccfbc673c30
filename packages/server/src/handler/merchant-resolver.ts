/**
 * Which merchant's credentials serve a request. A shop has one (its own API key); a platform has many and
 * picks by the business id the page, the return URL or the webhook names. An id the platform has not
 * connected is `not_found`, whatever the caller claims.
 */
import { PaykitError } from '@paykit/core';
import type { MerchantApi } from '../api/merchant-api.js';
import type { Platform } from '../platform/platform.js';

/** Resolves the merchant of a request from the business id it names (if any). */
export type MerchantResolver = (businessId: string | undefined) => Promise<MerchantApi>;

/** The resolver of a shop (one merchant) or of a platform (many). */
export function merchantResolver(target: { api: MerchantApi } | { platform: Platform }): MerchantResolver {
  if ('api' in target) return async () => target.api;
  const { platform } = target;
  return async (businessId) => {
    if (businessId === undefined) {
      throw new PaykitError('validation_failed', 'Say which merchant this is for: "merchant" is required', {
        errors: [{ path: 'merchant', message: 'is required' }],
      });
    }
    if (!(await platform.isConnected(businessId))) {
      throw new PaykitError('not_found', 'This merchant is not connected to the platform');
    }
    return platform.merchant(businessId);
  };
}
