/**
 * The object a triggered event is about: one that exists (of the business that asks, and in a state the service
 * sends that event in), or a fresh one made for it. A fresh one is made the way a shop would make it, through the
 * sandbox's own API and control routes (a payment request paid, a refund, a beneficiary and a transfer, a payout,
 * an invoice, a saved card), in process and with its own webhooks muted: it is a real object with its ledger
 * entries and dates, and the receiver gets the one event it asked for, not every event of the way there.
 */
import { PaykitError, type WebhookEventObject, type WebhookEventType } from '@paykit/core';
import type { SandboxContext } from '../context.js';
import { Faults } from '../faults.js';
import { saveCard } from '../recurring-billing.js';
import { chargeJson, paymentRequestJson } from '../serialize.js';
import type { Business } from '../state.js';
import { WebhookDispatcher, type DeliveryRequest, type WebhookDelivery } from './dispatcher.js';

/** The object an event is sent about, as its event webhook carries it. */
export interface TriggerObject {
  kind: WebhookEventObject;
  id: string;
  /** The JSON the event carries: the object as its `GET` answers it. */
  json: { id: string } & Record<string, unknown>;
}

/**
 * The statuses an event is sent with, where the service's docs tie it to one ("once a payment is successfully
 * completed", "once a payment is refunded", one transfer event per status). An event not listed here goes out
 * whatever the status (`order.updated`, `invoice.created`, `transfer.updated`, `recurring_billing.*`).
 */
const SENT_WITH: Partial<Record<WebhookEventType, readonly string[]>> = {
  'charge.created': ['succeeded'],
  'charge.updated': ['refunded', 'partially_refunded'],
  'charge.failed': ['failed'],
  'payment_request.completed': ['completed'],
  'payment_request.failed': ['failed'],
  'payout.created': ['paid'],
  'transfer.scheduled': ['scheduled'],
  'transfer.processing': ['processing'],
  'transfer.paid': ['paid'],
  'transfer.failed': ['failed'],
  'transfer.canceled': ['canceled'],
};

/**
 * The object `objectId` of `business`, as event `type` carries it. Throws `not_found` for an unknown id or one of
 * another business, and `conflict` when the object is not in a state the service sends `type` in (a succeeded
 * charge is never the body of `charge.failed`).
 */
export function existingObject(
  sandbox: SandboxContext,
  business: Business,
  type: WebhookEventType,
  kind: WebhookEventObject,
  objectId: string,
): TriggerObject {
  const json = readObject(sandbox, business.id, kind, objectId);
  if (!json) throw new PaykitError('not_found', `Business ${business.id} has no ${words(kind)} ${objectId}`);
  const statuses = SENT_WITH[type];
  if (statuses && !statuses.includes(String(json.status))) {
    throw new PaykitError(
      'conflict',
      `${type} is sent about a ${words(kind)} that is ${statuses.join(' or ')}; ${objectId} is ${String(json.status)}`,
    );
  }
  if (type === 'recurring_billing.method_attached' && !json.payment_method) {
    throw new PaykitError(
      'conflict',
      `${type} is sent about a record with a saved payment method; ${objectId} has none (its checkout saves one)`,
    );
  }
  return { kind, id: objectId, json };
}

/** Reads an object of `kind` the way its event carries it, or undefined when `businessId` has no such object. */
function readObject(
  sandbox: SandboxContext,
  businessId: string,
  kind: WebhookEventObject,
  id: string,
): ({ id: string } & Record<string, unknown>) | undefined {
  const { state } = sandbox;
  switch (kind) {
    case 'charge': {
      const charge = state.charges.get(id);
      return charge?.businessId === businessId ? chargeJson(charge, sandbox.publicUrl()) : undefined;
    }
    case 'payment_request': {
      const request = state.paymentRequests.get(id);
      return request?.businessId === businessId ? paymentRequestJson(request, sandbox.publicUrl()) : undefined;
    }
    case 'payout':
      return state.resources.get('payouts', id, businessId);
    case 'order':
      return state.resources.get('orders', id, businessId);
    case 'invoice':
      return state.resources.get('invoices', id, businessId);
    case 'transfer':
      return state.resources.get('transfers', id, businessId);
    case 'recurring_billing':
      return state.resources.get('recurring_billing', id, businessId);
  }
}

/** A dispatcher that records and sends nothing: the webhooks of the way to a fresh object stay unsent. */
class MutedDispatcher extends WebhookDispatcher {
  override send(request: DeliveryRequest): WebhookDelivery {
    return {
      id: 'muted',
      ...request,
      status: 'delivered',
      attempts: 0,
      response_status: null,
      last_error: null,
      history: [],
      created_at: '',
    };
  }
}

/** The sandbox's app over the same state and clocks, but with its webhooks muted and no armed fault in the way. */
const mutedApps = new WeakMap<SandboxContext, ReturnType<SandboxContext['createApp']>>();

function mutedApp(sandbox: SandboxContext): ReturnType<SandboxContext['createApp']> {
  let app = mutedApps.get(sandbox);
  if (!app) {
    app = sandbox.createApp({ ...sandbox, webhooks: new MutedDispatcher(), faults: new Faults() });
    mutedApps.set(sandbox, app);
  }
  return app;
}

/** Makes a fresh object for `type` of `business`, in the state the event is sent in. */
export async function freshObject(
  sandbox: SandboxContext,
  business: Business,
  type: WebhookEventType,
  kind: WebhookEventObject,
): Promise<TriggerObject> {
  const app = mutedApp(sandbox);
  // One call of the muted app: the API with the business's key, or the control API; its JSON answer.
  const call = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await app.request(path, {
      method,
      headers: { 'content-type': 'application/json', 'x-business-api-key': business.apiKey },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new PaykitError(
        'internal_error',
        `Making a fresh ${words(kind)} for ${type} failed at ${method} ${path}: ${text}`,
      );
    }
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  const paidRequest = async (outcome: 'succeeded' | 'failed', amount = '100') => {
    const request = await call('POST', '/v1/payment-requests', {
      amount,
      currency: business.currency,
      purpose: `Made for ${type}`,
      email: 'shopper@example.test',
    });
    const id = String(request.id);
    await call('POST', `/_sandbox/payment-requests/${id}/pay`, { outcome });
    const charge = [...sandbox.state.charges.values()].find((each) => each.paymentRequestId === id);
    if (!charge) throw new PaykitError('internal_error', `The payment request ${id} made for ${type} left no charge`);
    return { id, chargeId: charge.id };
  };
  const savedCardRecord = async () => {
    const record = await call('POST', '/v1/recurring-billing', {
      save_card: true,
      name: `Made for ${type}`,
      amount: '10',
      currency: business.currency,
      customer_email: 'shopper@example.test',
      customer_name: 'Sandbox shopper',
    });
    const stored = sandbox.state.resources.get('recurring_billing', String(record.id), business.id);
    if (!stored) throw new PaykitError('internal_error', `The record made for ${type} is not there`);
    // What its checkout does with the Visa test card, without the checkout's own events.
    saveCard(stored, { brand: 'visa', last4: '4242' }, sandbox.clocks.now(business.id));
    return String(record.id);
  };

  let id: string;
  switch (type) {
    case 'charge.created':
      id = (await paidRequest('succeeded')).chargeId;
      break;
    case 'charge.failed':
      id = (await paidRequest('failed')).chargeId;
      break;
    case 'charge.updated': {
      id = (await paidRequest('succeeded')).chargeId;
      await call('POST', '/v1/refunds', { payment_id: id, amount: '100' });
      break;
    }
    case 'payment_request.completed':
      id = (await paidRequest('succeeded')).id;
      break;
    case 'payment_request.failed':
      id = (await paidRequest('failed')).id;
      break;
    case 'order.created':
    case 'order.updated': {
      const { id: requestId } = await paidRequest('succeeded');
      const order = sandbox.state.resources
        .list('orders', business.id)
        .find((each) => each.payment_request_id === requestId);
      if (!order) throw new PaykitError('internal_error', `The payment request made for ${type} left no order`);
      id = order.id;
      break;
    }
    case 'payout.created': {
      await paidRequest('succeeded');
      id = String((await call('POST', '/_sandbox/payouts', { business_id: business.id })).id);
      await call('POST', `/_sandbox/payouts/${id}/status`, { status: 'paid' });
      break;
    }
    case 'invoice.created':
    case 'invoice.updated':
      id = String(
        (
          await call('POST', '/v1/invoices', {
            customer: { name: 'Sandbox shopper', email: 'shopper@example.test' },
            currency: business.currency,
            amount: '100',
            payment_by: 'amount',
            invoice_date: sandbox.clocks.now(business.id).toISOString().slice(0, 10),
          })
        ).id,
      );
      break;
    case 'recurring_billing.method_attached':
    case 'recurring_billing.subscription_updated':
      id = await savedCardRecord();
      break;
    case 'recurring_billing.method_detached':
      id = await savedCardRecord();
      await call('DELETE', `/v1/recurring-billing/${id}`);
      break;
    case 'transfer.created':
    case 'transfer.updated':
    case 'transfer.scheduled':
    case 'transfer.processing':
    case 'transfer.paid':
    case 'transfer.failed':
    case 'transfer.canceled':
      id = await freshTransfer(sandbox, business, type, call, paidRequest);
      break;
  }
  const json = readObject(sandbox, business.id, kind, id);
  if (!json) throw new PaykitError('internal_error', `The ${words(kind)} made for ${type} is not there`);
  return { kind, id, json };
}

/**
 * A transfer for a `transfer.*` event: money in (a paid request), a beneficiary, the transfer (scheduled, as the
 * API makes it), then the status the event names, set on the record (the sandbox moves transfers only on their
 * dates otherwise).
 */
async function freshTransfer(
  sandbox: SandboxContext,
  business: Business,
  type: WebhookEventType,
  call: (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>,
  paidRequest: (outcome: 'succeeded') => Promise<unknown>,
): Promise<string> {
  await paidRequest('succeeded');
  const beneficiary = await call('POST', '/_sandbox/beneficiaries', {
    business_id: business.id,
    holder_name: 'Sandbox Supplier',
    account_number: '000123456789',
  });
  const transfer = await call('POST', '/v1/transfers', {
    beneficiary_id: beneficiary.id,
    source_currency: business.currency,
    source_amount: '10',
  });
  const id = String(transfer.id);
  const status = SENT_WITH[type]?.[0];
  const stored = sandbox.state.resources.get('transfers', id, business.id);
  if (stored && status) stored.status = status;
  return id;
}

/** `payment_request` as words in a message: `payment request`. */
export function words(kind: WebhookEventObject): string {
  return kind.replace('_', ' ');
}
