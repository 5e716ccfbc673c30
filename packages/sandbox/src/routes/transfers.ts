/**
 * Transfers (API key only; the service's transfers OpenAPI where spec 4.10 only names them): an estimate that
 * changes nothing, a transfer to a saved beneficiary that moves money out of the balance with its fee, list
 * (by beneficiary and status) and read.
 */
import { PaykitError, type TransferEstimateOutput } from '@paykit/core';
import type { HandlersOf } from '../operation-call.js';
import { isoWithOffset } from '../clock.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { estimateJson, quoteTransfer, transferMoneyJson } from '../transfer-quote.js';
import { sendEvent } from '../webhooks/send.js';

/** The transfer operations. */
export function transferHandlers(sandbox: SandboxContext): HandlersOf<'transfers'> {
  const { state } = sandbox;

  /** The beneficiary a transfer names, or 422 naming `beneficiary_id`. */
  const beneficiaryOf = (beneficiaryId: string, businessId: string) => {
    const found = state.resources.get('beneficiaries', beneficiaryId, businessId);
    if (!found) {
      throw new PaykitError('validation_failed', 'beneficiary_id is not a beneficiary of this business', {
        errors: [{ path: 'beneficiary_id', message: 'is not a beneficiary of this business' }],
      });
    }
    return found;
  };
  // The schema has made sure of a source currency and an amount on one side.
  const quoteFor = (input: TransferEstimateOutput, beneficiary: Record<string, unknown>) =>
    quoteTransfer({
      sourceCurrency: input.source_currency ?? '',
      paymentCurrency: String(beneficiary.currency),
      sourceAmount: input.source_amount,
      paymentAmount: input.payment_amount,
    });

  return {
    // An estimate changes nothing: no balance check, no record (the service's estimate-fee operation).
    'transfers.estimate': async ({ businessId, body }) => {
      const input = await body();
      return estimateJson(quoteFor(input, beneficiaryOf(input.beneficiary_id, businessId)));
    },
    'transfers.create': async ({ c, caller: { business }, body }) => {
      const input = await body();
      const beneficiary = beneficiaryOf(input.beneficiary_id, business.id);
      const quote = quoteFor(input, beneficiary);
      // The payer bears the fee, so the balance in the source currency must cover amount and fee.
      const needed = quote.sourceMinor + quote.feeMinor;
      if (needed > state.ledger.balanceMinor(business.id, quote.sourceCurrency)) {
        throw new PaykitError('conflict', 'The available balance is lower than the transfer and its fee');
      }
      const transfer = state.resources.add('transfers', business.id, {
        beneficiary: { ...beneficiary },
        ...transferMoneyJson(quote),
        remark: input.remark ?? null,
        reference: input.reference ?? null,
        // The service schedules a transfer; the sandbox's stays scheduled (its money has left the balance).
        status: 'scheduled',
        attachment: null,
        created_by: null,
        approved_by: null,
        rejected_by: null,
        created_at: isoWithOffset(sandbox.clocks.now(business.id)),
      });
      state.ledger.recordTransfer({
        transferId: transfer.id,
        businessId: business.id,
        beneficiaryId: input.beneficiary_id,
        sourceMinor: quote.sourceMinor,
        feeMinor: quote.feeMinor,
        currency: quote.sourceCurrency,
      });
      // The service's transfer events: created, and one per status it reaches (a new transfer is scheduled).
      sendEvent(sandbox, 'transfer.created', transfer, business.id);
      sendEvent(sandbox, 'transfer.scheduled', transfer, business.id);
      return c.json(transfer, 201);
    },
    // The service filters its transfer list by beneficiary and status.
    'transfers.list': ({ businessId, filters }) => {
      const { beneficiary_id: beneficiaryId, status } = filters();
      return state.resources
        .list('transfers', businessId)
        .filter(
          (t) =>
            (beneficiaryId === undefined || t.beneficiary.id === beneficiaryId) &&
            (status === undefined || t.status === status),
        );
    },
    'transfers.get': ({ params, businessId }) => {
      const found = state.resources.get('transfers', params.id, businessId);
      if (!found) throw notFound('Transfer not found');
      return found;
    },
  };
}
