import { describe, expect, it } from 'vitest';
import { errorBody, PaykitError } from './errors.js';
import { httpStatusOf } from './http-status.js';

describe('PaykitError says where it came from', () => {
  it('is local when paykit decided it: no status of its own, its answer has its code’s', () => {
    const error = new PaykitError('validation_failed', 'amount must be greater than 0', {
      errors: [{ path: 'amount', message: 'must be greater than 0' }],
    });
    expect(error.origin).toBe('local');
    expect(error.status).toBeUndefined();
    expect(httpStatusOf(error.code)).toBe(422);
  });

  it('is upstream with the status of the answer it was read from', () => {
    const error = new PaykitError('validation_failed', 'The amount is too small', { status: 422 });
    expect(error.origin).toBe('upstream');
    expect(error.status).toBe(422);
  });

  it('is upstream without a status when the upstream gave no answer', () => {
    const error = new PaykitError('network_error', 'Could not reach the Payments API', { origin: 'upstream' });
    expect(error.origin).toBe('upstream');
    expect(error.status).toBeUndefined();
  });

  it('keeps its origin and cause out of the HTTP body', () => {
    const error = new PaykitError('upstream_error', 'boom', { status: 502, cause: new Error('secret') });
    expect(errorBody(error)).toEqual({ message: 'boom', code: 'upstream_error' });
  });
});
