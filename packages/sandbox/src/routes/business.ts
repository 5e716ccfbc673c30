/**
 * The business itself: its profile (`GET /v1/info`, any token), its account status, and the reads of its
 * beneficiaries (spec 4.3) and staff (4.4), with the spec's not-found texts.
 */
import type { HandlersOf } from '../operation-call.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';

/** The business operations. */
export function businessHandlers(
  sandbox: SandboxContext,
): HandlersOf<'info' | 'accountStatus' | 'beneficiaries' | 'staff'> {
  const { state } = sandbox;
  return {
    'info.get': ({ caller: { business } }) => ({
      id: business.id,
      name: business.name,
      country: business.country,
      currency: business.currency,
      payments_enabled: true,
    }),
    'accountStatus.get': () => ({ payments_enabled: true, payouts_enabled: true, status: 'active' }),
    'beneficiaries.get': ({ params, businessId }) => {
      const found = state.resources.get('beneficiaries', params.id, businessId);
      if (!found) throw notFound('Bank account record not found');
      return found;
    },
    'staff.get': ({ params, businessId }) => {
      const found = state.resources.get('staff', params.id, businessId);
      if (!found) throw notFound('The staff cannot be found');
      return found;
    },
  };
}
