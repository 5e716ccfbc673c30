/**
 * `POST {prefix}/webhooks`: the service's webhooks, in both formats it sends (an event webhook to a registered
 * endpoint, a payment notification to a payment request's `webhook`). In this order, each step before the next:
 *
 * 1. the exact bytes are read (a body some parser already consumed is refused: its bytes are gone);
 * 2. with a salt, the signature is checked, in constant time: a missing or wrong one is 401, and nothing else
 *    happens, no claim, no API call, no hook;
 * 3. the body must be what its headers name (they are not signed);
 * 4. the resource is fetched from the API with the merchant's credentials and must be in the state the event
 *    names: a signature proves who sent it, not that it is still true;
 * 5. the fact is claimed once across instances (the event store), whichever format brought it, and the hook runs.
 */
import {
  invoiceSchema,
  isPaykitError,
  PaykitError,
  type Charge,
  type Invoice,
  type Order,
  type PaymentRequest,
  type Payout,
  type RecurringBilling,
  type Transfer,
  type WebhookEventObject,
  type WebhookEventType,
} from '@paykit/core';
import type { MerchantApi } from '../../api/merchant-api.js';
import { callOperation } from '../../client/call-operation.js';
import type { FactActor } from '../../facts/act-once.js';
import { asPaymentOfRequest } from '../../facts/payment-of-charge.js';
import { rememberSecret } from '../../secrets.js';
import { factOf, isConfirmedBy } from '../../webhooks/event-rules.js';
import {
  businessIdOf,
  checkWebhookSignature,
  claimOf,
  receiveWebhook,
  WEBHOOK_MEDIA_TYPES,
  type WebhookClaim,
} from '../../webhooks/received-webhook.js';
import { asUpstreamFailure } from '../error-response.js';
import type { Answer, Exchange } from '../exchange.js';
import { hookContext, json, readBody, type BodyLimits } from '../http.js';
import type { MerchantResolver } from '../merchant-resolver.js';
import type { ConfirmedEvent, PaykitHandlerOptions, WebhookSaltContext } from '../options.js';

/** When a delivery that found its fact held by another is to come again: a hook usually takes less. */
const BUSY_RETRY_AFTER_SECONDS = 5;

/** The route. */
export function webhooksRoute(
  merchants: MerchantResolver,
  options: PaykitHandlerOptions,
  facts: FactActor,
  limits: BodyLimits,
) {
  return async (exchange: Exchange): Promise<Answer> => {
    if (exchange.bodyRebuilt) throw rebuiltBody();
    const { type, bytes } = await readBody(exchange, limits, WEBHOOK_MEDIA_TYPES);
    const received = receiveWebhook(type, bytes, exchange.headers);
    const businessId = businessIdOf(received, exchange.url);
    const salt = await saltFor(options.webhookSalt, {
      format: received.format,
      object: received.format === 'event' ? received.object : 'payment_request',
      businessId,
    });
    if (salt !== undefined) await checkWebhookSignature(received, salt);
    const claim = claimOf(received);
    const api = await merchants(businessId);
    // A charge of a payment request is that request's payment: one fact, whichever events the business listens to.
    const event = await asPaymentOfRequest(api, await confirm(api, claim, salt !== undefined));
    // A failed attempt at a request still open (or paid since): the request's own outcome is the fact.
    if (event === undefined) return json({ received: true });
    const outcome = await facts.act(event, hookContext(exchange));
    if (outcome === 'busy') {
      // Not "received": the holder's hook may still fail and give the fact back, and then only a redelivery runs it.
      throw new PaykitError(
        'conflict',
        `${event.fact} is being acted on by another delivery now: deliver it again later`,
        {
          retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS,
        },
      );
    }
    // Outside the store's horizon: answered, so that the service stops retrying, but not acted on (logged).
    if (outcome === 'outsideRetention') return json({ received: true, outsideRetention: true });
    return json(outcome === 'duplicate' ? { received: true, duplicate: true } : { received: true });
  };
}

/** The salt of this delivery, remembered as a secret so that no log line can show it. */
async function saltFor(
  option: PaykitHandlerOptions['webhookSalt'],
  from: WebhookSaltContext,
): Promise<string | undefined> {
  const salt = typeof option === 'function' ? await option(from) : option;
  if (salt !== undefined && (typeof salt !== 'string' || salt === '')) {
    throw new PaykitError('internal_error', `webhookSalt gave ${salt === '' ? 'an empty string' : typeof salt}`);
  }
  rememberSecret(salt);
  return salt;
}

/** Each kind of object a webhook can name, as the API has it. */
interface Resources {
  payment_request: PaymentRequest;
  charge: Charge;
  payout: Payout;
  order: Order;
  invoice: Invoice;
  transfer: Transfer;
  recurring_billing: RecurringBilling;
}

/** What every confirmed event carries besides its resource and type. */
type FactBase = Pick<ConfirmedEvent, 'fact' | 'source' | 'deliveredAs'>;

/** How one kind of object is read from the API now, and the confirmed event that carries it. */
interface ResourceRule<O extends WebhookEventObject> {
  read(api: MerchantApi, claim: WebhookClaim, signed: boolean): Promise<Resources[O]>;
  event(base: FactBase, claim: WebhookClaim, resource: Resources[O]): ConfirmedEvent;
}

/** One row per kind of object: where it is read, and under which name its event carries it. */
const RESOURCE_RULES: { [O in WebhookEventObject]: ResourceRule<O> } = {
  payment_request: {
    read: (api, claim) => api.getPaymentRequest(claim.id),
    event: (base, claim, paymentRequest) => ({ ...base, type: eventOf(claim, 'payment_request'), paymentRequest }),
  },
  charge: {
    read: (api, claim) => api.getCharge(claim.id),
    event: (base, claim, charge) => ({ ...base, type: eventOf(claim, 'charge'), charge }),
  },
  payout: {
    read: (api, claim) => callOperation(api.config, 'payouts.get', { params: { id: claim.id } }),
    event: (base, claim, payout) => ({ ...base, type: eventOf(claim, 'payout'), payout }),
  },
  order: {
    read: (api, claim) => callOperation(api.config, 'orders.get', { params: { id: claim.id } }),
    event: (base, claim, order) => ({ ...base, type: eventOf(claim, 'order'), order }),
  },
  transfer: {
    read: (api, claim) => callOperation(api.config, 'transfers.get', { params: { id: claim.id } }),
    event: (base, claim, transfer) => ({ ...base, type: eventOf(claim, 'transfer'), transfer }),
  },
  recurring_billing: {
    read: (api, claim) => callOperation(api.config, 'recurringBilling.get', { params: { id: claim.id } }),
    event: (base, claim, recurringBilling) => ({
      ...base,
      type: eventOf(claim, 'recurring_billing'),
      recurringBilling,
    }),
  },
  invoice: {
    // The service has no read of one invoice: the signed body is all there is, so it must be signed.
    read: async (_api, claim, signed) => {
      if (!signed) {
        throw new PaykitError(
          'event_not_confirmed',
          'An invoice event cannot be confirmed with the API (it has no read of one invoice): set webhookSalt so ' +
            'that its signature is the proof',
        );
      }
      return invoiceSchema.parse(claim.data);
    },
    event: (base, claim, invoice) => ({ ...base, type: eventOf(claim, 'invoice'), invoice }),
  },
};

/** Fetches the resource the webhook names and checks that the API agrees with it. */
async function confirm(api: MerchantApi, claim: WebhookClaim, signed: boolean): Promise<ConfirmedEvent> {
  return confirmWith(RESOURCE_RULES[claim.object], api, claim, signed);
}

async function confirmWith<O extends WebhookEventObject>(
  rule: ResourceRule<O>,
  api: MerchantApi,
  claim: WebhookClaim,
  signed: boolean,
): Promise<ConfirmedEvent> {
  let resource: Resources[O];
  try {
    resource = await rule.read(api, claim, signed);
  } catch (error) {
    if (isPaykitError(error, 'not_found')) {
      throw new PaykitError('not_found', `The API knows no ${words(claim.object)} ${claim.id} of this merchant`, {
        cause: error,
      });
    }
    throw asUpstreamFailure(error, 'The payment service could not confirm the webhook', [
      'validation_failed',
      'event_not_confirmed',
    ]);
  }
  const { status } = resource;
  if (!isConfirmedBy(claim.type, status)) {
    throw new PaykitError(
      'event_not_confirmed',
      `The webhook says ${claim.type} but the API says the ${words(claim.object)} is ${status}`,
    );
  }
  return rule.event(
    { fact: factOf(claim.type, claim.id, status), source: 'webhook', deliveredAs: claim.format },
    claim,
    resource,
  );
}

/** The claim's event as an event of `object`, which `claimOf` made it (checked, so that the types follow). */
function eventOf<O extends WebhookEventObject>(claim: WebhookClaim, object: O): EventOf<O> {
  const { type } = claim;
  if (!isEventOf(type, object)) throw new PaykitError('internal_error', `${type} is not an event of ${object}`);
  return type;
}

type EventOf<O extends WebhookEventObject> = Extract<WebhookEventType, `${O}.${string}`>;

function isEventOf<O extends WebhookEventObject>(type: WebhookEventType, object: O): type is EventOf<O> {
  return type.startsWith(`${object}.`);
}

function words(object: WebhookEventObject): string {
  return object.replace('_', ' ');
}

function rebuiltBody(): PaykitError {
  return new PaykitError(
    'raw_body_unavailable',
    'A body parser (express.json() or express.urlencoded()) read the webhook before paykit did, so the exact ' +
      'bytes its signature covers are gone and nothing was done. Mount paykitMiddleware before any body parser, ' +
      'or mount the parsers on your own routes only.',
  );
}
