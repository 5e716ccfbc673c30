/**
 * Where money goes after a payment: payouts (spec 4.1) and the balance-transactions ledger (4.6, its page as
 * spec 2.6 shows it).
 */
import { minorToMajor } from '@paykit/core';
import { ListItems, type HandlersOf } from '../operation-call.js';
import { isoWithOffset } from '../clock.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';

/** The payout and balance operations. */
export function balanceHandlers(sandbox: SandboxContext): HandlersOf<'payouts' | 'balances'> {
  const { state } = sandbox;
  return {
    'payouts.get': ({ params, businessId }) => {
      const found = state.resources.get('payouts', params.id, businessId);
      if (!found) throw notFound('Payout not found');
      return found;
    },

    // Newest first, within the days asked (both ends included).
    'balances.transactions.list': ({ params, businessId, filters }) => {
      if (params.segment !== sandbox.balanceProcessorSegment) throw notFound('No such balance processor');
      const { created_at_from: from, created_at_to: to } = filters();
      const day = (at: Date) => at.toISOString().slice(0, 10);
      const entries = state.ledger.entries
        .filter((e) => e.businessId === businessId)
        .filter((e) => (!from || day(e.at) >= from) && (!to || day(e.at) <= to))
        .reverse();
      return ListItems.of(
        entries,
        (e) => e.id,
        (e) => ({
          datetime: isoWithOffset(e.at),
          description: e.description,
          charge_id: e.chargeId,
          order_id: null,
          payout_id: e.payoutId,
          transfer_id: e.transferId ?? '',
          debit: e.debitMinor === null ? null : minorToMajor(e.debitMinor),
          credit: e.creditMinor === null ? null : minorToMajor(e.creditMinor),
          currency: e.currency.toUpperCase(),
        }),
      );
    },
  };
}
