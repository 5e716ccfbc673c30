import { describe, expect, it } from 'vitest';
import { httpStatusOf } from './http-status.js';

describe('httpStatusOf', () => {
  it('answers each code with the status its doc table promises', () => {
    expect(httpStatusOf('validation_failed')).toBe(422);
    expect(httpStatusOf('invalid_json')).toBe(400);
    expect(httpStatusOf('invalid_body')).toBe(400);
    expect(httpStatusOf('unauthorized')).toBe(401);
    expect(httpStatusOf('forbidden')).toBe(403);
    expect(httpStatusOf('not_found')).toBe(404);
    expect(httpStatusOf('conflict')).toBe(409);
    expect(httpStatusOf('rate_limited')).toBe(429);
    expect(httpStatusOf('store_unavailable')).toBe(503);
    expect(httpStatusOf('request_timeout')).toBe(408);
    expect(httpStatusOf('view_refused')).toBe(403);
    expect(httpStatusOf('refund_refused')).toBe(403);
    expect(httpStatusOf('merchant_not_connected')).toBe(409);
    expect(httpStatusOf('merchant_connection_ended')).toBe(409);
    expect(httpStatusOf('idempotency_key_invalid')).toBe(400);
    expect(httpStatusOf('internal_error')).toBe(500);
  });
});
