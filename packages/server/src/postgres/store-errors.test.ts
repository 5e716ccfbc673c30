import { isPaykitError } from '@paykit/core';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { mayHaveWritten, StoreDeadlineError, storeError } from './store-errors.js';

/** An error as pg reports the server's ErrorResponse. */
function serverError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, 0, 'error');
  error.code = code;
  return error;
}

describe('storeError', () => {
  it("makes the server's own time limits and the stores' deadline store_unavailable", () => {
    for (const failure of [
      serverError('57014', 'canceling statement due to statement timeout'),
      serverError('55P03', 'canceling statement due to lock timeout'),
      serverError('25P03', 'terminating connection due to idle-in-transaction timeout'),
      new StoreDeadlineError('the database', 2_000),
      new StoreDeadlineError('a connection', 2_000),
    ]) {
      const error = storeError(failure);
      expect(isPaykitError(error, 'store_unavailable'), failure.message).toBe(true);
      expect(error).toMatchObject({ retryAfterSeconds: 1, cause: failure });
    }
  });

  it('says whether a write may have landed only when asked to', () => {
    const deadline = new StoreDeadlineError('the database', 2_000);
    expect(mayHaveWritten(storeError(deadline, { mayHaveWritten: true }))).toBe(true);
    expect(mayHaveWritten(storeError(deadline))).toBe(false);
    expect(mayHaveWritten(new Error('not a store error'))).toBe(false);
  });

  it("passes PgBouncer's refusal of a startup parameter through as it is: a setting to fix, not an outage", () => {
    const refused = serverError('08P01', 'unsupported startup parameter: statement_timeout');
    expect(storeError(refused)).toBe(refused);
    expect(isPaykitError(storeError(serverError('08P01', 'invalid message format')), 'store_unavailable')).toBe(true);
  });
});
