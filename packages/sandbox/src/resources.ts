/**
 * Records of the resources the spec names but whose lifecycle is simple here (products, invoices, customers,
 * plans, transfers, beneficiaries, staff, terminals, QR codes, payouts, refunds, saved cards, orders): each is a
 * JSON object owned by one business, kept in insertion order. Each kind has its type, taken from the core
 * response schema the clients read it with ({@link RESOURCE_SCHEMAS}), so `get('products', ...)` is a product.
 */
import {
  beneficiarySchema,
  customerSchema,
  invoiceSchema,
  orderSchema,
  payoutSchema,
  productSchema,
  refundSchema,
  recurringBillingSchema,
  staffMemberSchema,
  staticQrCodeSchema,
  subscriptionPlanSchema,
  terminalSchema,
  transferSchema,
} from '@paykit/core';
import { newId } from './ids.js';
import type { Wire, WithoutId } from './wire.js';

/**
 * The core schema each kind's JSON answers to: the one the clients parse its operations' answers with. The
 * keys are every kind the store keeps (the persisted file checks each record with its kind's schema).
 */
export const RESOURCE_SCHEMAS = {
  products: productSchema,
  invoices: invoiceSchema,
  customers: customerSchema,
  subscription_plans: subscriptionPlanSchema,
  transfers: transferSchema,
  beneficiaries: beneficiarySchema,
  staff: staffMemberSchema,
  terminals: terminalSchema,
  static_qr_codes: staticQrCodeSchema,
  payouts: payoutSchema,
  refunds: refundSchema,
  recurring_billing: recurringBillingSchema,
  orders: orderSchema,
} as const;

/** The kinds of record the store keeps. */
export type ResourceKind = keyof typeof RESOURCE_SCHEMAS;

/** Every kind of record the store keeps (the persisted file and the tests list them from here). */
// Object.keys types its keys as strings; the table is a literal with at least one kind (z.enum wants a tuple).
export const RESOURCE_KINDS = Object.keys(RESOURCE_SCHEMAS) as [ResourceKind, ...ResourceKind[]];

/** The JSON of a record of kind `K`, as the API answers with it. */
export type ResourceOf<K extends ResourceKind> = Wire<(typeof RESOURCE_SCHEMAS)[K]> & { id: string };

/** A new record of kind `K`: its JSON, with an `id` only when the caller chose one. */
export type NewResource<K extends ResourceKind> = WithoutId<ResourceOf<K>>;

/** A stored record: its JSON as the API answers, and its owner. */
export interface StoredResource<K extends ResourceKind = ResourceKind> {
  businessId: string;
  json: ResourceOf<K>;
}

/** Every record of every kind. */
export class ResourceStore {
  readonly #kinds = new Map<ResourceKind, Map<string, StoredResource>>();

  /** Adds a record with a fresh id (unless `json.id` is given) and returns its JSON. */
  add<K extends ResourceKind>(kind: K, businessId: string, json: NewResource<K>): ResourceOf<K> {
    const { id: given, ...fields } = json;
    // The fields of a K with its id put back (first, as the API answers): TypeScript does not follow a generic rest.
    const record = { id: typeof given === 'string' ? given : newId(), ...fields } as ResourceOf<K>;
    this.#map(kind).set(record.id, { businessId, json: record });
    return record;
  }

  /** The record of this business, or undefined (another business's record is not found either). */
  get<K extends ResourceKind>(kind: K, id: string, businessId: string): ResourceOf<K> | undefined {
    const found = this.#map(kind).get(id);
    return found && found.businessId === businessId ? found.json : undefined;
  }

  /** The record whatever its owner (for the control API). */
  find<K extends ResourceKind>(kind: K, id: string): StoredResource<K> | undefined {
    return this.#map(kind).get(id);
  }

  /** The records of a business, newest first. */
  list<K extends ResourceKind>(kind: K, businessId: string): ResourceOf<K>[] {
    return [...this.#map(kind).values()]
      .filter((r) => r.businessId === businessId)
      .map((r) => r.json)
      .reverse();
  }

  /** Every record of every kind with its kind, each kind in insertion order (for saving the state). */
  *all(): Generator<StoredResource & { kind: ResourceKind }> {
    for (const [kind, records] of this.#kinds) for (const record of records.values()) yield { kind, ...record };
  }

  delete(kind: ResourceKind, id: string): boolean {
    return this.#map(kind).delete(id);
  }

  reset(): void {
    this.#kinds.clear();
  }

  // One map per kind; `K` is only ever the kind the map was made for, which the public methods' types keep.
  #map<K extends ResourceKind>(kind: K): Map<string, StoredResource<K>> {
    let map = this.#kinds.get(kind);
    if (!map) this.#kinds.set(kind, (map = new Map()));
    return map;
  }
}
