/**
 * `/v1/payment-requests` (spec 4.7 and 4.10): create (form or JSON), list, read and cancel.
 */
import { expireIfDue } from '../payment-request-expiry.js';
import { majorToMinor, PaykitError } from '@paykit/core';
import type { SandboxContext } from '../context.js';
import { ListItems, type HandlersOf } from '../operation-call.js';
import { notFound } from '../errors.js';
import { newId } from '../ids.js';
import { extrasFrom } from '../payment-request-extras.js';
import { paymentRequestJson, paymentRequestPaymentsJson } from '../serialize.js';
import type { PaymentRequestRecord } from '../state.js';

/** The payment-request operations. */
export function paymentRequestHandlers(sandbox: SandboxContext): HandlersOf<'paymentRequests'> {
  const find = (id: string, businessId: string): PaymentRequestRecord => {
    const record = sandbox.state.paymentRequests.get(id);
    // Another business's request is "not found", never "forbidden": its existence is not this caller's business.
    if (!record || record.businessId !== businessId) throw notFound('Payment request not found');
    expireIfDue(sandbox, record);
    return record;
  };

  // The spec's fields, the real service's documented extras, and nothing else (unknown fields are ignored).
  const json = (record: PaymentRequestRecord) => paymentRequestJson(record, sandbox.publicUrl());

  return {
    'paymentRequests.create': async ({ caller, body }) => {
      const input = await body();
      if (input.platform_commission_amount !== undefined && !caller.platform) {
        throw new PaykitError('validation_failed', 'platform_commission_amount needs a valid X-PLATFORM-KEY', {
          errors: [{ path: 'platform_commission_amount', message: 'needs a valid X-PLATFORM-KEY' }],
        });
      }
      checkInPerson(sandbox, caller.business.id, input.payment_methods, input.wifi_terminal_id);
      const now = sandbox.clocks.now(caller.business.id);
      const record: PaymentRequestRecord = {
        id: newId(),
        businessId: caller.business.id,
        amountMinor: majorToMinor(input.amount),
        currency: input.currency.toLowerCase(),
        email: input.email ?? null,
        purpose: input.purpose ?? null,
        redirectUrl: input.redirect_url ?? null,
        webhook: input.webhook ?? null,
        paymentMethods: input.payment_methods ?? ['paynow_online', 'card'],
        wifiTerminalId: input.wifi_terminal_id ?? null,
        allowRepeatedPayments: input.allow_repeated_payments ?? false,
        saveCard: input.save_card ?? false,
        platformCommissionMinor:
          input.platform_commission_amount === undefined
            ? null
            : majorToMinor(input.platform_commission_amount, { field: 'platform_commission_amount' }),
        platformBusinessId: caller.platform?.id ?? null,
        extras: extrasFrom(input, now),
        status: 'pending',
        createdAt: now,
        updatedAt: now,
      };
      sandbox.state.paymentRequests.set(record.id, record);
      return json(record);
    },

    // Newest first, in the real service's cursor-list shape (per_page a number, links, path).
    'paymentRequests.list': ({ businessId }) => {
      const own = [...sandbox.state.paymentRequests.values()].filter((r) => r.businessId === businessId);
      for (const record of own) expireIfDue(sandbox, record);
      return ListItems.of(own.reverse(), (r) => r.id, json);
    },

    // Only the read of one request lists its payments, as the service's "Get Payment Request Status" does.
    'paymentRequests.get': ({ params, businessId }) => {
      const record = find(params.id, businessId);
      const charges = [...sandbox.state.charges.values()].filter((charge) => charge.paymentRequestId === record.id);
      return { ...json(record), payments: paymentRequestPaymentsJson(charges) };
    },

    'paymentRequests.update': async ({ params, businessId, body }) => {
      const record = find(params.id, businessId);
      if (record.status !== 'pending') {
        throw new PaykitError('conflict', `A ${record.status} payment request cannot be updated`);
      }
      const input = await body();
      Object.assign(record, {
        amountMinor: majorToMinor(input.amount),
        currency: input.currency.toLowerCase(),
        email: input.email ?? record.email,
        purpose: input.purpose ?? record.purpose,
        redirectUrl: input.redirect_url ?? record.redirectUrl,
        updatedAt: sandbox.clocks.now(businessId),
      });
      record.extras = extrasFrom(input, record.updatedAt);
      return json(record);
    },

    'paymentRequests.cancel': ({ params, businessId }) => {
      const record = find(params.id, businessId);
      if (record.status !== 'pending') {
        throw new PaykitError('conflict', `A ${record.status} payment request cannot be canceled`);
      }
      record.status = 'canceled';
      record.updatedAt = sandbox.clocks.now(businessId);
      return json(record);
    },
  };
}

/** In-person payments (spec 5.4.8): a card reader needs one of the business's own terminals. */
function checkInPerson(
  sandbox: SandboxContext,
  businessId: string,
  methods: string[] | undefined,
  terminalId: string | undefined,
) {
  if (terminalId === undefined && !methods?.includes('wifi_card_reader')) return;
  if (terminalId === undefined || !methods?.includes('wifi_card_reader')) {
    throw new PaykitError('validation_failed', 'wifi_card_reader and wifi_terminal_id go together', {
      errors: [{ path: 'wifi_terminal_id', message: 'is needed with wifi_card_reader, and only with it' }],
    });
  }
  if (!sandbox.state.resources.get('terminals', terminalId, businessId)) {
    throw new PaykitError('validation_failed', 'wifi_terminal_id is not a terminal of this business', {
      errors: [{ path: 'wifi_terminal_id', message: 'is not a terminal of this business' }],
    });
  }
}
