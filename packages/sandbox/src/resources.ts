/**
 * Records of the resources the spec names but whose lifecycle is simple here (products, invoices, customers,
 * plans, transfers, beneficiaries, staff, terminals, QR codes, payouts, refunds, saved cards, orders): each is a
 * JSON object owned by one business, kept in insertion order.
 */
import { newId } from './ids.js';

/** Every kind of record the store keeps (the persisted file and the tests list them from here). */
export const RESOURCE_KINDS = [
  'products',
  'invoices',
  'customers',
  'subscription_plans',
  'transfers',
  'beneficiaries',
  'staff',
  'terminals',
  'static_qr_codes',
  'payouts',
  'refunds',
  'saved_cards',
  'orders',
] as const;

/** The kinds of record the store keeps. */
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** A stored record: its JSON as the API answers, and its owner. */
export interface StoredResource {
  businessId: string;
  json: Record<string, unknown> & { id: string };
}

/** Every record of every kind. */
export class ResourceStore {
  readonly #kinds = new Map<ResourceKind, Map<string, StoredResource>>();

  /** Adds a record with a fresh id (unless `json.id` is given) and returns its JSON. */
  add(kind: ResourceKind, businessId: string, json: Record<string, unknown>): Record<string, unknown> & { id: string } {
    const { id: given, ...fields } = json;
    const record = { id: typeof given === 'string' ? given : newId(), ...fields };
    this.#map(kind).set(record.id, { businessId, json: record });
    return record;
  }

  /** The record of this business, or undefined (another business's record is not found either). */
  get(kind: ResourceKind, id: string, businessId: string): StoredResource['json'] | undefined {
    const found = this.#map(kind).get(id);
    return found && found.businessId === businessId ? found.json : undefined;
  }

  /** The record whatever its owner (for the control API). */
  find(kind: ResourceKind, id: string): StoredResource | undefined {
    return this.#map(kind).get(id);
  }

  /** The records of a business, newest first. */
  list(kind: ResourceKind, businessId: string): StoredResource['json'][] {
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

  #map(kind: ResourceKind): Map<string, StoredResource> {
    let map = this.#kinds.get(kind);
    if (!map) this.#kinds.set(kind, (map = new Map()));
    return map;
  }
}
