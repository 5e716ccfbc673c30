/**
 * Which driver failures mean "the database cannot be reached now": they become `store_unavailable` (HTTP
 * 503, try again in a moment). A query that the database refused for what it says (a syntax error, a
 * constraint) is a bug and passes through unchanged. The database giving up on a statement by its own time
 * limits (`statement_timeout`, `lock_timeout`, `idle_in_transaction_session_timeout`) and the stores' deadline
 * are `store_unavailable` too: a moment later the same call may well succeed.
 */
import { isPaykitError, PaykitError } from '@paykit/core';

/** What a shopper reads when the store is down (the handler sends it as the 503's message). */
export const STORE_UNAVAILABLE_MESSAGE =
  'The shop is busy right now. Nothing was charged: please try again in a moment.';

/** Error codes of Node's sockets and of the driver that mean the connection could not be made or was lost. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOENT', // a Unix socket that is not there
  // postgres (porsager): not the stores' driver, but the bench runs them over it to compare
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);

/**
 * What `pg` (node-postgres) 8 and its pool say when the connection could not be made or was lost: plain
 * `Error`s without a code, so they are told by their message (with the socket's error, if any, as `cause`).
 */
const NODE_POSTGRES_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'timeout expired',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
]);

/**
 * SQLSTATEs by which the server gave up on a statement by its own time limits, the database being there:
 * 57014 (query_canceled: `statement_timeout`, or a cancel request), 55P03 (lock_not_available:
 * `lock_timeout`), 25P03 (`idle_in_transaction_session_timeout`, which also ends the session).
 */
const SERVER_TIMEOUT_STATES = new Set(['57014', '55P03', '25P03']);

/**
 * SQLSTATEs of a server that is there but cannot serve: class 08 (connection exception), 57P01-57P05
 * (shutting down, crash recovery, starting up, idle-session timeout), 53300 (too many connections),
 * 53000/53100/53200 (out of resources), 58000/58030 (system, I/O error), and the server's time limits.
 */
function isUnavailableState(state: string): boolean {
  return (
    state.startsWith('08') ||
    /^57P0[1-5]$/.test(state) ||
    SERVER_TIMEOUT_STATES.has(state) ||
    ['53000', '53100', '53200', '53300', '58000', '58030'].includes(state)
  );
}

/** True when `error` is the server's own answer that it gave up in time (so the server is there, and answers). */
export function isServerTimeout(error: unknown): boolean {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && SERVER_TIMEOUT_STATES.has(code);
}

/**
 * The stores gave up on an operation at its deadline (`timeoutMs` of `createPostgresStores`): no answer came
 * from the database in time, while waiting for a connection of the pool, while connecting, or for a statement.
 */
export class StoreDeadlineError extends Error {
  override readonly name = 'StoreDeadlineError';
  /** What the operation was waiting for when its time was up. */
  readonly waitingFor: 'a connection' | 'the database';
  readonly timeoutMs: number;

  constructor(waitingFor: 'a connection' | 'the database', timeoutMs: number) {
    super(
      `No answer from ${waitingFor === 'a connection' ? 'the pool or the database' : 'the database'} within ${timeoutMs} ms`,
    );
    this.waitingFor = waitingFor;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * `store_unavailable` from the PostgreSQL stores. It also says whether the operation may have taken effect all
 * the same: a statement sent whose answer never came (the deadline passed, the connection was lost) may still be
 * carried out by the server (a frozen server runs what it had received once it resumes). A store that claimed
 * something with such a statement gives the claim back later (abandoned-claims.ts).
 */
export class StoreUnavailableError extends PaykitError {
  /** False when nothing can have been written: nothing was sent, or the server answered with its error. */
  readonly mayHaveWritten: boolean;

  constructor(cause: unknown, mayHaveWritten: boolean) {
    super('store_unavailable', STORE_UNAVAILABLE_MESSAGE, { cause, retryAfterSeconds: 1 });
    this.mayHaveWritten = mayHaveWritten;
  }
}

/** True when `error` is `store_unavailable` after a write whose outcome is unknown (see {@link StoreUnavailableError}). */
export function mayHaveWritten(error: unknown): boolean {
  return error instanceof StoreUnavailableError && error.mayHaveWritten;
}

/** True when `error` (of the driver or of Node's sockets) says the database could not be reached or the connection was lost. */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof StoreDeadlineError) return true;
  if (error instanceof AggregateError && error.errors.some(isUnavailable)) return true;
  const code = 'code' in error ? error.code : undefined;
  if (typeof code === 'string') {
    if (CONNECTION_CODES.has(code)) return true;
    // PgBouncer refusing a startup parameter it does not know (the stores send their time limits as such): a
    // setting to fix, not an outage to wait out. See the server README's "Serverless and poolers".
    if (code === '08P01' && error.message.startsWith('unsupported startup parameter')) return false;
    if (/^[0-9A-Z]{5}$/.test(code)) return isUnavailableState(code);
  } else if (NODE_POSTGRES_MESSAGES.has(error.message)) {
    return true;
  }
  return error.cause !== undefined && error.cause !== error && isUnavailable(error.cause);
}

/**
 * `error` as it should leave a store: `store_unavailable` when the database could not be reached, else as it
 * is. `mayHaveWritten`: the operation's outcome is unknown (see {@link StoreUnavailableError}).
 */
export function storeError(error: unknown, { mayHaveWritten = false } = {}): unknown {
  if (isPaykitError(error) || !isUnavailable(error)) return error;
  return new StoreUnavailableError(error, mayHaveWritten);
}
