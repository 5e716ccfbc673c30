/**
 * `verifyWebhook` on deliveries signed in the test itself, with node:crypto, as the service's public docs
 * describe the two formats: an event webhook's `Hitpay-Signature` is the HMAC-SHA256 (hex) of the raw body; a
 * notification's `hmac` is the HMAC-SHA256 (hex) of every other field as key then value, ordered by key. Every
 * forgery is refused with its own stable code.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook } from './verify-webhook.js';

const SALT = 'salt-of-the-test-business';
const hmac = (key: string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest('hex');

const charge = {
  id: '9ced76ac-1638-44df-b702-3f43f6592e2a',
  business_id: '9130c422-bf97-4bd1-b370-07a3a6f40708',
  status: 'succeeded',
  amount: 70.56,
  currency: 'sgd',
  payment_request_id: '9ced76aa-ea65-46a1-a13a-16e9ae39620f',
};

function event(body: string, headers: Record<string, string> = {}, salt = SALT) {
  return {
    salt: SALT,
    headers: {
      'content-type': 'application/json',
      'hitpay-signature': hmac(salt, body),
      'hitpay-event-type': 'created',
      'hitpay-event-object': 'charge',
      ...headers,
    },
    body,
  };
}

/** The docs page's example notification, signed here as the docs say. */
function notification(fields: Record<string, string>, salt = SALT) {
  const signed = Object.keys(fields)
    .sort()
    .map((key) => `${key}${fields[key]}`)
    .join('');
  return new URLSearchParams({ ...fields, hmac: hmac(salt, signed) }).toString();
}

const NOTIFIED = {
  payment_id: '92965a2d-ece3-4ace-1245-494050c9a3c1',
  payment_request_id: '92965a20-dae5-4d89-a452-5fdfa382dbe1',
  reference_number: 'ABC123',
  phone: '',
  amount: '599.00',
  currency: 'SGD',
  status: 'completed',
};
const form = { 'content-type': 'application/x-www-form-urlencoded' };

async function refusal(input: Parameters<typeof verifyWebhook>[0]) {
  return verifyWebhook(input).then(
    () => undefined,
    (error: unknown) => error as { code: string; message: string },
  );
}

describe('verifyWebhook: event webhooks', () => {
  it('accepts the exact bytes the service signed, and says what they claim', async () => {
    const body = JSON.stringify(charge);
    expect(await verifyWebhook(event(body))).toMatchObject({
      format: 'event',
      type: 'charge.created',
      object: 'charge',
      id: charge.id,
      fact: `charge.created:${charge.id}`,
      data: { amount: 70.56, business_id: charge.business_id },
    });
    // The bytes as received: a Uint8Array or an ArrayBuffer of them verifies the same.
    const bytes = new TextEncoder().encode(body);
    expect((await verifyWebhook({ ...event(body), body: bytes })).id).toBe(charge.id);
    expect((await verifyWebhook({ ...event(body), body: bytes.buffer })).id).toBe(charge.id);
  });

  it('refuses the same data re-serialized: the signature covers bytes, not meaning', async () => {
    const body = JSON.stringify(charge);
    const reserialized = JSON.stringify(JSON.parse(body), null, 2);
    const signedOriginal = event(body);
    expect(await refusal({ ...signedOriginal, body: reserialized })).toMatchObject({ code: 'signature_mismatch' });
  });

  it('refuses a field changed after signing, another salt, a wrong signature of the right length, and none', async () => {
    const body = JSON.stringify(charge);
    const changed = event(body);
    changed.body = body.replace('70.56', '7056');
    expect(await refusal(changed)).toMatchObject({ code: 'signature_mismatch' });
    expect(await refusal(event(body, {}, 'another-business-salt'))).toMatchObject({ code: 'signature_mismatch' });
    expect(await refusal(event(body, { 'hitpay-signature': '0'.repeat(64) }))).toMatchObject({
      code: 'signature_mismatch',
    });
    const truncated = hmac(SALT, body).slice(0, 40);
    expect(await refusal(event(body, { 'hitpay-signature': truncated }))).toMatchObject({
      code: 'signature_malformed',
    });
    const unsigned = event(body);
    delete (unsigned.headers as Record<string, string | undefined>)['hitpay-signature'];
    const missing = await refusal(unsigned);
    expect(missing).toMatchObject({ code: 'signature_missing' });
    // The refusal names what to check, and never the salt.
    const wrong = await refusal(event(body, {}, 'another-business-salt'));
    expect(wrong?.message).toMatch(/webhookSalt/);
    expect(wrong?.message).not.toContain(SALT);
  });

  it('refuses a signed body whose (unsigned) headers were swapped, before anything is fetched', async () => {
    const body = JSON.stringify(charge);
    // A paid charge relabelled as a completed payment request: its body is no payment request.
    expect(
      await refusal(event(body, { 'hitpay-event-object': 'payment_request', 'hitpay-event-type': 'completed' })),
    ).toMatchObject({ code: 'validation_failed' });
    // `created` relabelled `failed`: the signed body still says succeeded.
    expect(await refusal(event(body, { 'hitpay-event-type': 'failed' }))).toMatchObject({ code: 'validation_failed' });
    expect(await refusal(event(body, { 'hitpay-event-object': 'customer' }))).toMatchObject({
      code: 'validation_failed',
    });
  });
});

describe('verifyWebhook: payment notifications', () => {
  it("accepts the docs page's example fields signed as its PHP describes, and names the payment request", async () => {
    const verified = await verifyWebhook({ salt: SALT, headers: form, body: notification(NOTIFIED) });
    expect(verified).toMatchObject({
      format: 'notification',
      type: 'payment_request.completed',
      object: 'payment_request',
      id: NOTIFIED.payment_request_id,
      fact: `payment_request.completed:${NOTIFIED.payment_request_id}`,
    });
  });

  it('makes the same fact as the event webhook of the same payment, so that one of them acts', async () => {
    const notified = await verifyWebhook({ salt: SALT, headers: form, body: notification(NOTIFIED) });
    const request = {
      id: NOTIFIED.payment_request_id,
      status: 'completed',
      amount: '599.00',
      currency: 'SGD',
      url: 'https://securecheckout.example/payment-request/@shop/x/checkout',
    };
    const body = JSON.stringify(request);
    const evented = await verifyWebhook(
      event(body, { 'hitpay-event-object': 'payment_request', 'hitpay-event-type': 'completed' }),
    );
    expect(evented.fact).toBe(notified.fact);
  });

  it('refuses a field changed after signing, a missing hmac, another salt, and a repeated field', async () => {
    const genuine = new URLSearchParams(notification(NOTIFIED));
    const changed = new URLSearchParams(genuine);
    changed.set('amount', '1.00');
    expect(await refusal({ salt: SALT, headers: form, body: changed.toString() })).toMatchObject({
      code: 'signature_mismatch',
    });
    const unsigned = new URLSearchParams(genuine);
    unsigned.delete('hmac');
    expect(await refusal({ salt: SALT, headers: form, body: unsigned.toString() })).toMatchObject({
      code: 'signature_missing',
    });
    expect(
      await refusal({ salt: SALT, headers: form, body: notification(NOTIFIED, 'another-business-salt') }),
    ).toMatchObject({ code: 'signature_mismatch' });
    const twice = `${genuine.toString()}&status=failed`;
    expect(await refusal({ salt: SALT, headers: form, body: twice })).toMatchObject({ code: 'duplicate_parameter' });
  });

  it('refuses a signed id that is not one path segment, which the caller would re-fetch by', async () => {
    const events = ['..', '.', 'a/b'].map((id) => event(JSON.stringify({ ...charge, id })));
    const notifications = ['..', '.'].map((id) => ({
      salt: SALT,
      headers: form,
      body: notification({ ...NOTIFIED, payment_request_id: id }),
    }));
    const refused = await Promise.all([...events, ...notifications].map(refusal));
    expect(refused.map((error) => error?.code)).toEqual(Array(5).fill('validation_failed'));
    expect(refused.map((error) => (error as { errors?: { path: string }[] }).errors?.[0]?.path)).toEqual([
      'id',
      'id',
      'id',
      'payment_request_id',
      'payment_request_id',
    ]);
  });

  it('takes nothing but JSON and forms', async () => {
    expect(await refusal({ salt: SALT, headers: { 'content-type': 'text/plain' }, body: 'hi' })).toMatchObject({
      code: 'unsupported_media_type',
    });
  });
});
