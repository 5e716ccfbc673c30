/**
 * The sandbox's memory: every record the emulated API holds, in plain maps. One instance per sandbox;
 * `reset()` empties it and seeds the demo business again.
 */
import type { ChargeStatus, PaymentRequestStatus, WebhookEventType } from '@paykit/core';
import { Ledger } from './ledger.js';
import type { PaymentRequestExtras } from './payment-request-extras.js';
import { ResourceStore } from './resources.js';
import { timingSafeEqual } from 'node:crypto';
import { newId, newSecret } from './ids.js';
import { SANDBOX_SEED } from './seed.js';

/** A merchant business. */
export interface Business {
  id: string;
  name: string;
  country: string;
  currency: string;
  apiKey: string;
  /** Set on platform-enabled accounts only (spec 5.4.1). */
  platformKey: string | null;
  /**
   * The secret its webhooks are signed with: the real service's "salt", shown in its dashboard beside the API key.
   * A payment notification and the business's event webhooks are signed with it; the unified stream of a
   * platform (charge events of payments made with its key) with the platform's own.
   */
  salt: string;
}

/** A payment request as the sandbox stores it; amounts in minor units. */
export interface PaymentRequestRecord {
  id: string;
  businessId: string;
  amountMinor: number;
  currency: string;
  email: string | null;
  purpose: string | null;
  redirectUrl: string | null;
  webhook: string | null;
  paymentMethods: string[];
  wifiTerminalId: string | null;
  allowRepeatedPayments: boolean;
  /** Save the card on payment (a saved-card billing record). */
  saveCard: boolean;
  platformCommissionMinor: number | null;
  /** The platform business whose key created the request, when one was used. */
  platformBusinessId: string | null;
  /** The real service's documented fields the spec does not show (name, phone, expiry, ...), echoed back. */
  extras: PaymentRequestExtras;
  status: PaymentRequestStatus;
  createdAt: Date;
  updatedAt: Date;
}

/** A charge: one attempt to pay a payment request, or a charge of a saved card. */
export interface ChargeRecord {
  id: string;
  businessId: string;
  /** The payment request it pays; null for a charge of a saved card. */
  paymentRequestId: string | null;
  /** The recurring billing record it charged; null for a payment request's charge. */
  recurringBillingId: string | null;
  amountMinor: number;
  currency: string;
  /** Pending only inside the call that makes it: the sandbox decides a charge as it creates it. */
  status: ChargeStatus;
  /** The method's code (`card`, `paynow_online`, `wifi_card_reader`, ...). */
  paymentMethod: string;
  /** The card it was paid with, when the method takes one; null otherwise. */
  card: ChargeCard | null;
  /** Who paid, as the payment request or the saved card names them; null when neither names anyone. */
  customer: ChargeCustomer | null;
  /** The payment request's `reference_number` (the service's `order_reference_number`). */
  orderReferenceNumber: string | null;
  /** What the merchant wrote: the payment request's `purpose`, or the saved card's `name`. */
  remark: string | null;
  /** The card reader of a `wifi_card_reader` payment. */
  terminalId: string | null;
  /** The refunds made of it, oldest first (routes/refunds.ts adds each with its refund record). */
  refunds: ChargeRefund[];
  platformBusinessId: string | null;
  createdAt: Date;
  /** When it last changed: its creation (it is decided in the same call) or its latest refund. */
  updatedAt: Date;
}

/** A card as a charge keeps it: the brand's code as the sandbox reads it from the number, and the last four. */
export interface ChargeCard {
  brand: string;
  last4: string;
}

/** The payer a charge names. */
export interface ChargeCustomer {
  name: string | null;
  email: string | null;
  phoneNumber: string | null;
}

/** One refund of a charge: the refund record's id, how much and when. */
export interface ChargeRefund {
  id: string;
  amountMinor: number;
  at: Date;
}

/**
 * A webhook endpoint registered on a business (spec 6 rule 1): what the service's webhook-events API creates, a
 * name, the URL events are posted to and the events it listens to.
 */
export interface WebhookEndpoint {
  id: string;
  businessId: string;
  name: string;
  url: string;
  /** The events sent to it, each once, in the order they were given. */
  eventTypes: WebhookEventType[];
  createdAt: Date;
  updatedAt: Date;
}

/**
 * When a subscription's saved card is charged by its cycle: the record of spec 2.3 shows no such date, so the
 * sandbox keeps it beside the record (`recurring-cycles.ts` reads and moves it).
 */
export interface BillingSchedule {
  recordId: string;
  businessId: string;
  /** The instant cycles are counted from (the start date, 00:00 Singapore time), epoch ms. */
  anchorAt: number;
  /** Cycles charged since `anchorAt` (a manual charge through the API is not a cycle). */
  cycles: number;
  /** The cycle the count runs in (`monthly`, `custom 2 week`, …): a changed cycle starts counting again. */
  cycle: string;
}

/** The name of an endpoint registered without one (the control API, or a data file older than names). */
export const DEFAULT_ENDPOINT_NAME = 'Webhook';

/** What {@link SandboxState.addEndpoint} registers. */
export type NewWebhookEndpoint = Omit<WebhookEndpoint, 'id' | 'createdAt' | 'updatedAt'>;

/** Everything the sandbox remembers. */
export class SandboxState {
  readonly businesses = new Map<string, Business>();
  readonly paymentRequests = new Map<string, PaymentRequestRecord>();
  readonly charges = new Map<string, ChargeRecord>();
  readonly webhookEndpoints = new Map<string, WebhookEndpoint>();
  readonly ledger = new Ledger();
  readonly resources = new ResourceStore();
  /** Subscriptions' cycles, by recurring billing id. */
  readonly billingSchedules = new Map<string, BillingSchedule>();

  constructor() {
    this.reset();
  }

  /** Forgets everything and seeds the demo business. */
  reset(): void {
    this.businesses.clear();
    this.paymentRequests.clear();
    this.charges.clear();
    this.webhookEndpoints.clear();
    this.ledger.reset();
    this.resources.reset();
    this.billingSchedules.clear();
    this.businesses.set(SANDBOX_SEED.businessId, {
      id: SANDBOX_SEED.businessId,
      name: SANDBOX_SEED.name,
      country: SANDBOX_SEED.country,
      currency: SANDBOX_SEED.currency,
      apiKey: SANDBOX_SEED.apiKey,
      platformKey: SANDBOX_SEED.platformKey,
      salt: SANDBOX_SEED.salt,
    });
  }

  /** Creates a business with fresh keys; a platform key only when `platform` is set. */
  createBusiness(input: { name: string; country: string; currency: string; platform: boolean }): Business {
    const business: Business = {
      id: newId(),
      name: input.name,
      country: input.country.toLowerCase(),
      currency: input.currency.toLowerCase(),
      apiKey: newSecret('sk_sandbox'),
      platformKey: input.platform ? newSecret('pk_sandbox') : null,
      salt: newSecret('salt_sandbox'),
    };
    this.businesses.set(business.id, business);
    return business;
  }

  /** The business whose API key this is, compared in constant time per candidate. */
  businessByApiKey(key: string): Business | undefined {
    for (const business of this.businesses.values()) if (safeEqual(business.apiKey, key)) return business;
    return undefined;
  }

  /** The business whose platform key this is. */
  businessByPlatformKey(key: string): Business | undefined {
    for (const business of this.businesses.values()) {
      if (business.platformKey && safeEqual(business.platformKey, key)) return business;
    }
    return undefined;
  }

  /** The endpoints registered on a business, oldest first. */
  endpointsOf(businessId: string): WebhookEndpoint[] {
    return [...this.webhookEndpoints.values()].filter((endpoint) => endpoint.businessId === businessId);
  }

  /** The endpoints of a business that listen to `type`: where an event of that type goes. */
  endpointsListening(businessId: string, type: WebhookEventType): WebhookEndpoint[] {
    return this.endpointsOf(businessId).filter((endpoint) => endpoint.eventTypes.includes(type));
  }

  /** Registers an endpoint with a fresh id, created and updated `now` (its business's clock). */
  addEndpoint(input: NewWebhookEndpoint, now: Date): WebhookEndpoint {
    const endpoint: WebhookEndpoint = { id: newId(), ...input, createdAt: now, updatedAt: now };
    this.webhookEndpoints.set(endpoint.id, endpoint);
    return endpoint;
  }

  /** The endpoint of this business, or undefined (another business's endpoint is not found either). */
  endpointOf(businessId: string, id: string): WebhookEndpoint | undefined {
    const found = this.webhookEndpoints.get(id);
    return found?.businessId === businessId ? found : undefined;
  }
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
