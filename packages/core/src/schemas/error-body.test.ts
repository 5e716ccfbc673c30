import { describe, expect, it } from 'vitest';
import { errorBodySchema } from './error-body.js';

describe('errorBodySchema', () => {
  it("reads the real service's 422 (errors by field, each a list of texts) as paykit's list", () => {
    // The body of the service's OpenAPI description of POST /v1/payment-requests, 422.
    const body = {
      message: 'The given data was invalid.',
      errors: {
        amount: ['The amount field is required.'],
        currency: ['The currency field is required.', 'The currency must be 3 characters.'],
      },
    };
    expect(errorBodySchema.parse(body)).toEqual({
      message: 'The given data was invalid.',
      errors: [
        { path: 'amount', message: 'The amount field is required.' },
        { path: 'currency', message: 'The currency field is required.' },
        { path: 'currency', message: 'The currency must be 3 characters.' },
      ],
    });
  });

  it("reads paykit's own body (code, errors as a list) unchanged", () => {
    const body = {
      message: 'Payment request is invalid',
      code: 'validation_failed',
      errors: [{ path: 'amount', message: 'must be more than 0' }],
    };
    expect(errorBodySchema.parse(body)).toEqual(body);
  });

  it("reads the spec's { message } and refuses a body without one", () => {
    expect(errorBodySchema.parse({ message: 'Payment request not found' })).toEqual({
      message: 'Payment request not found',
    });
    expect(errorBodySchema.safeParse({ errors: { amount: ['x'] } }).success).toBe(false);
  });
});
