/**
 * The payment-request fields the real service documents and the spec does not show (name, phone,
 * reference_number, send_email, send_sms, expiry, address, metadata, staff and location): validated by core's
 * schema, kept on the sandbox's record (`extras`, written to the data file like the rest of it) and echoed as
 * the real service answers them.
 */
import type { PaymentRequestCreate } from '@paykit/core';

/** The documented fields as the real service echoes them. */
export interface PaymentRequestExtras {
  name: string | null;
  phone: string | null;
  reference_number: string | null;
  send_email: boolean;
  send_sms: boolean;
  /** Singapore time without offset (`2025-05-26T15:10:00`), as the real service answers it. */
  expiry_date: string | null;
  address: NonNullable<PaymentRequestCreate['address']> | null;
  metadata: Record<string, string> | null;
  staff_id: string | null;
  business_location_id: string | null;
}

/** Reads the documented fields of a validated create or update body (`now` for `expires_after`). */
export function extrasFrom(input: PaymentRequestCreate, now: Date): PaymentRequestExtras {
  return {
    name: input.name ?? null,
    phone: input.phone ?? null,
    reference_number: input.reference_number ?? null,
    send_email: input.send_email ?? false,
    send_sms: input.send_sms ?? false,
    expiry_date: expiryOf(input, now),
    address: input.address ?? null,
    metadata: input.metadata ?? null,
    staff_id: input.staff_id ?? null,
    // The real service takes both names and recommends business_location_id; it answers with that one.
    business_location_id: input.business_location_id ?? input.location_id ?? null,
  };
}

/** A record's documented fields when none were given, as the real service shows them (null, false). */
export const NO_EXTRAS: Readonly<PaymentRequestExtras> = Object.freeze({
  name: null,
  phone: null,
  reference_number: null,
  send_email: false,
  send_sms: false,
  expiry_date: null,
  address: null,
  metadata: null,
  staff_id: null,
  business_location_id: null,
});

/** `expiry_date` (Singapore time as given) or `expires_after` (from now), as `YYYY-MM-DDTHH:mm:ss` in Singapore. */
function expiryOf(input: PaymentRequestCreate, now: Date): string | null {
  if (input.expiry_date !== undefined) return input.expiry_date.replace(' ', 'T');
  if (input.expires_after === undefined) return null;
  const [, count, unit] = /^(\d+) ?([a-z]+)$/.exec(input.expires_after) ?? [];
  const minutes = unit!.startsWith('min') ? 1 : unit!.startsWith('hour') ? 60 : 24 * 60;
  const at = new Date(now.getTime() + Number(count) * minutes * 60_000 + 8 * 3_600_000);
  return at.toISOString().slice(0, 19);
}
