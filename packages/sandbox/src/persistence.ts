/**
 * The sandbox's memory as one plain JSON document, so that `startSandbox({ dataFile })` can start where the last
 * run stopped: Maps become arrays (in insertion order, which the lists answer in), Dates ISO 8601 strings, and
 * the document names its format and `version`. This module knows no file; `data-file.ts` reads and writes it.
 *
 * Kept: businesses (with their keys), payment requests, charges, webhook endpoints, the ledger, every other
 * resource, dashboard users, OAuth apps (client id and secret hash), authorization codes and grants (token
 * hashes only, as in memory), and how far `POST /_sandbox/clock` moved the clock.
 *
 * Not kept, on purpose: faults armed by the control API and the token endpoint's rate-limit counters (both are
 * about the moment), the webhook delivery log and its pending retries (a restart cancels them, as `close()`
 * does), and dashboard sessions: their ids are bearer secrets held unhashed, and signing in again takes one
 * click (the sandbox has no passwords), so after a restart everyone is signed out.
 */
import { chargeStatuses, paymentRequestStatuses, SCOPES, webhookEventTypes } from '@paykit/core';
import * as z from 'zod';
import { completeCharge, type StoredCharge } from './charge-records.js';
import type { SandboxContext } from './context.js';
import type { LedgerEntry } from './ledger.js';
import type { App, AuthorizationCode, Grant, User } from './oauth/oauth-state.js';
import { NO_EXTRAS, type PaymentRequestExtras } from './payment-request-extras.js';
import { RESOURCE_KINDS, RESOURCE_SCHEMAS, type NewResource } from './resources.js';
import { newSecret } from './ids.js';
import { SANDBOX_SEED } from './seed.js';
import { DEFAULT_ENDPOINT_NAME, type Business, type PaymentRequestRecord, type WebhookEndpoint } from './state.js';

/** What the `format` field of a state document says. */
export const SNAPSHOT_FORMAT = 'paykit-sandbox-state';
/**
 * The version this sandbox writes and reads. Bump it when a stored shape changes in a way an older file cannot
 * be read as (there is no migration); a field added with a default for older files (a payment request's
 * `extras`, a charge's `recurringBillingId`, or its payer, card and refunds read from the file) keeps the version.
 */
export const SNAPSHOT_VERSION = 1;

const date = z.iso.datetime().transform((value) => new Date(value));
const scopes = z.array(z.enum(SCOPES));
const nullableString = z.string().nullable();

// Each schema's output must be the record the sandbox holds, so a field added to a record and forgotten here
// fails to compile (`satisfies`), rather than vanishing on the next restart.
// A file written before businesses had a salt gets one: the seed's own for the seeded business, a new one for the
// others (written back with the next change, so it stays the same from then on).
const business = z
  .object({
    id: z.string(),
    name: z.string(),
    country: z.string(),
    currency: z.string(),
    apiKey: z.string(),
    platformKey: nullableString,
    salt: z.string().optional(),
  })
  .transform(({ salt, ...rest }): Business => ({
    ...rest,
    salt: salt ?? (rest.id === SANDBOX_SEED.businessId ? SANDBOX_SEED.salt : newSecret('salt_sandbox')),
  })) satisfies z.ZodType<Business, unknown>;

// The real service's documented payment-request fields; a file written before they were kept has none.
const paymentRequestExtras = z.object({
  name: nullableString,
  phone: nullableString,
  reference_number: nullableString,
  send_email: z.boolean(),
  send_sms: z.boolean(),
  expiry_date: nullableString,
  address: z
    .object({
      line1: z.string(),
      line2: z.string().optional(),
      city: z.string(),
      state: z.string(),
      country: z.string(),
      postal_code: z.string(),
    })
    .nullable(),
  metadata: z.record(z.string(), z.string()).nullable(),
  staff_id: nullableString,
  business_location_id: nullableString,
}) satisfies z.ZodType<PaymentRequestExtras, unknown>;

const paymentRequest = z.object({
  id: z.string(),
  businessId: z.string(),
  amountMinor: z.int(),
  currency: z.string(),
  email: nullableString,
  purpose: nullableString,
  redirectUrl: nullableString,
  webhook: nullableString,
  paymentMethods: z.array(z.string()),
  wifiTerminalId: nullableString,
  allowRepeatedPayments: z.boolean(),
  saveCard: z.boolean(),
  platformCommissionMinor: z.int().nullable(),
  platformBusinessId: nullableString,
  extras: paymentRequestExtras.default(() => ({ ...NO_EXTRAS })),
  status: z.enum(paymentRequestStatuses),
  createdAt: date,
  updatedAt: date,
}) satisfies z.ZodType<PaymentRequestRecord, unknown>;

const charge = z.object({
  id: z.string(),
  businessId: z.string(),
  paymentRequestId: nullableString,
  // Older files have no saved-card charges that name their record.
  recurringBillingId: nullableString.default(null),
  amountMinor: z.int(),
  currency: z.string(),
  status: z.enum(chargeStatuses),
  paymentMethod: z.string(),
  // Older files have none of these: completeCharge reads them from the rest of the file.
  card: z.object({ brand: z.string(), last4: z.string() }).nullable().optional(),
  customer: z
    .object({ name: nullableString, email: nullableString, phoneNumber: nullableString })
    .nullable()
    .optional(),
  orderReferenceNumber: nullableString.optional(),
  remark: nullableString.optional(),
  terminalId: nullableString.optional(),
  refunds: z.array(z.object({ id: z.string(), amountMinor: z.int(), at: date })).optional(),
  platformBusinessId: nullableString,
  createdAt: date,
  updatedAt: date.optional(),
}) satisfies z.ZodType<StoredCharge, unknown>;

// A file written before endpoints were registered through the webhook-events API holds only the URL: such an
// endpoint got every event then, so it keeps getting every event; it gets the default name and is dated when read
// (its real dates were never kept).
const webhookEndpoint = z
  .object({
    id: z.string(),
    businessId: z.string(),
    name: z.string().default(DEFAULT_ENDPOINT_NAME),
    url: z.string(),
    eventTypes: z.array(z.enum(webhookEventTypes)).default(() => [...webhookEventTypes]),
    createdAt: date.optional(),
    updatedAt: date.optional(),
  })
  .transform(({ createdAt, updatedAt, ...rest }): WebhookEndpoint => {
    const loaded = new Date();
    return { ...rest, createdAt: createdAt ?? loaded, updatedAt: updatedAt ?? createdAt ?? loaded };
  }) satisfies z.ZodType<WebhookEndpoint, unknown>;

const ledgerEntry = z.object({
  id: z.string(),
  businessId: z.string(),
  at: date,
  description: z.string(),
  chargeId: nullableString,
  payoutId: nullableString,
  transferId: nullableString,
  creditMinor: z.int().nullable(),
  debitMinor: z.int().nullable(),
  currency: z.string(),
}) satisfies z.ZodType<LedgerEntry, unknown>;

// Each record must be what its kind's core schema reads (the type the store gives it), checked on reading.
const resource = z
  .object({
    kind: z.enum(RESOURCE_KINDS),
    businessId: z.string(),
    json: z.looseObject({ id: z.string() }),
  })
  .superRefine((value, ctx) => {
    const checked = RESOURCE_SCHEMAS[value.kind].safeParse(value.json);
    if (checked.success) return;
    for (const issue of checked.error.issues) {
      ctx.addIssue({ code: 'custom', path: ['json', ...issue.path], message: `${value.kind}: ${issue.message}` });
    }
  });

const user = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  memberships: z.array(z.object({ businessId: z.string(), role: z.enum(['owner', 'admin', 'member']) })),
}) satisfies z.ZodType<User>;

const app = z.object({
  clientId: z.string(),
  businessId: z.string(),
  name: z.string(),
  redirectUris: z.array(z.string()),
  scopes,
  secretHash: z.string(),
}) satisfies z.ZodType<App>;

const code = z.object({
  hash: z.string(),
  clientId: z.string(),
  businessId: z.string(),
  redirectUri: z.string(),
  scopes,
  // JSON has no undefined: a code issued without PKCE is stored with `null`.
  codeChallenge: nullableString.transform((value) => value ?? undefined),
  expiresAt: z.number(),
  used: z.boolean(),
  familyId: nullableString,
}) satisfies z.ZodType<AuthorizationCode, unknown>;

const grant = z.object({
  id: z.string(),
  familyId: z.string(),
  clientId: z.string(),
  businessId: z.string(),
  scopes,
  accessHash: z.string(),
  refreshHash: z.string(),
  accessExpiresAt: z.number(),
  refreshExpiresAt: z.number().nullable().optional(),
  refreshUsed: z.boolean(),
  revoked: z.boolean(),
}) satisfies z.ZodType<Grant>;

const snapshotSchema = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.literal(SNAPSHOT_VERSION),
  savedAt: z.iso.datetime(),
  state: z.object({
    businesses: z.array(business),
    paymentRequests: z.array(paymentRequest),
    charges: z.array(charge),
    webhookEndpoints: z.array(webhookEndpoint),
    ledger: z.array(ledgerEntry),
    resources: z.array(resource),
    /** Absent in files older than clocks: no subscription had a cycle then. */
    billingSchedules: z
      .array(
        z.object({
          recordId: z.string(),
          businessId: z.string(),
          anchorAt: z.number(),
          cycles: z.number().int().nonnegative(),
          cycle: z.string(),
        }),
      )
      .optional(),
  }),
  oauth: z.object({
    users: z.array(user),
    apps: z.array(app),
    codes: z.array(code),
    grants: z.array(grant),
    clockOffsetMs: z.number().nonnegative(),
  }),
  /** Each business's clock, ahead of the shared one by this many milliseconds (absent in older files: none). */
  clocks: z.record(z.string(), z.number().nonnegative()).optional(),
});

/** The JSON document of a sandbox's state, as written to its data file. */
export type SandboxSnapshot = z.input<typeof snapshotSchema>;
/** A decoded document, ready to restore (Dates are Dates again). */
export type DecodedSnapshot = z.output<typeof snapshotSchema>;

/** The state of a sandbox as a JSON-ready document. Synchronous, so it is one consistent moment. */
export function snapshotSandbox(context: Pick<SandboxContext, 'state' | 'oauth' | 'clocks'>): SandboxSnapshot {
  const { state, oauth, clocks } = context;
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    savedAt: new Date().toISOString(),
    state: {
      businesses: [...state.businesses.values()],
      paymentRequests: [...state.paymentRequests.values()].map((r) => ({
        ...r,
        createdAt: r.createdAt.toISOString(),
        updatedAt: r.updatedAt.toISOString(),
      })),
      charges: [...state.charges.values()].map((c) => ({
        ...c,
        refunds: c.refunds.map((r) => ({ ...r, at: r.at.toISOString() })),
        createdAt: c.createdAt.toISOString(),
        updatedAt: c.updatedAt.toISOString(),
      })),
      webhookEndpoints: [...state.webhookEndpoints.values()].map((e) => ({
        ...e,
        createdAt: e.createdAt.toISOString(),
        updatedAt: e.updatedAt.toISOString(),
      })),
      ledger: state.ledger.entries.map((e) => ({ ...e, at: e.at.toISOString() })),
      resources: [...state.resources.all()],
      billingSchedules: [...state.billingSchedules.values()],
    },
    oauth: {
      users: [...oauth.users.values()],
      apps: [...oauth.apps.values()],
      codes: [...oauth.codes.values()].map((c) => ({ ...c, codeChallenge: c.codeChallenge ?? null })),
      grants: [...oauth.grants.values()],
      clockOffsetMs: oauth.clockOffsetMs,
    },
    clocks: clocks.offsets(),
  };
}

/** The outcome of {@link decodeSnapshot}: the document, or what is wrong with it in words. */
export type DecodeResult = { ok: true; snapshot: DecodedSnapshot } | { ok: false; problem: string };

/**
 * Checks a parsed JSON value: the format and version first (a document of another version gets a message that
 * says so, not a list of field errors), then every record.
 */
export function decodeSnapshot(value: unknown): DecodeResult {
  const head = z.looseObject({ format: z.string(), version: z.unknown() }).safeParse(value);
  if (!head.success || head.data.format !== SNAPSHOT_FORMAT) {
    return { ok: false, problem: 'is not a paykit sandbox state file' };
  }
  if (head.data.version !== SNAPSHOT_VERSION) {
    return {
      ok: false,
      problem: `is format version ${JSON.stringify(head.data.version)}; this sandbox reads version ${SNAPSHOT_VERSION} only`,
    };
  }
  const full = snapshotSchema.safeParse(value);
  if (full.success) return { ok: true, snapshot: full.data };
  const first = full.error.issues[0];
  const where = first?.path.length ? `at ${first.path.join('.')}: ` : '';
  return { ok: false, problem: `does not hold a valid sandbox state (${where}${first?.message ?? 'invalid'})` };
}

/**
 * Replaces the sandbox's memory with a decoded document. Sessions, faults, rate-limit counters and webhook
 * deliveries are left as they are (a sandbox restores before it listens, when they are all empty).
 */
export function restoreSandbox(
  context: Pick<SandboxContext, 'state' | 'oauth' | 'clocks'>,
  snapshot: DecodedSnapshot,
): void {
  const { state, oauth, clocks } = context;
  state.reset();
  state.businesses.clear();
  for (const b of snapshot.state.businesses) state.businesses.set(b.id, b);
  for (const r of snapshot.state.paymentRequests) state.paymentRequests.set(r.id, r);
  for (const e of snapshot.state.webhookEndpoints) state.webhookEndpoints.set(e.id, e);
  for (const e of snapshot.state.ledger) state.ledger.entries.push(e);
  // Checked against the kind's schema when decoded (`resource` above), so it is that kind's record.
  for (const r of snapshot.state.resources) {
    state.resources.add(r.kind, r.businessId, r.json as NewResource<typeof r.kind>);
  }
  // After the payment requests and the resources: an older file's charge reads what it lacks from them.
  for (const c of snapshot.state.charges) state.charges.set(c.id, completeCharge(c, state));
  for (const s of snapshot.state.billingSchedules ?? []) state.billingSchedules.set(s.recordId, s);

  oauth.reset();
  oauth.users.clear();
  for (const u of snapshot.oauth.users) oauth.users.set(u.id, u);
  for (const a of snapshot.oauth.apps) oauth.apps.set(a.clientId, a);
  for (const c of snapshot.oauth.codes) oauth.codes.set(c.hash, c);
  for (const g of snapshot.oauth.grants) oauth.grants.set(g.id, g);
  oauth.advance(snapshot.oauth.clockOffsetMs);
  clocks.restore(snapshot.clocks ?? {});
}
