/**
 * Which driver failures mean "the database cannot be reached now": they become `store_unavailable` (HTTP
 * 503, try again in a moment). A query that the database refused for what it says (a syntax error, a
 * constraint) is a bug and passes through unchanged.
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
 * SQLSTATEs of a server that is there but cannot serve: class 08 (connection exception), 57P01-57P05
 * (shutting down, crash recovery, starting up, idle-session timeout), 53300 (too many connections),
 * 53000/53100/53200 (out of resources), 58000/58030 (system, I/O error).
 */
function isUnavailableState(state: string): boolean {
  return (
    state.startsWith('08') ||
    /^57P0[1-5]$/.test(state) ||
    ['53000', '53100', '53200', '53300', '58000', '58030'].includes(state)
  );
}

/** True when `error` (of the driver or of Node's sockets) says the database could not be reached or the connection was lost. */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof AggregateError && error.errors.some(isUnavailable)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECTION_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return isUnavailableState(code);
  } else if (NODE_POSTGRES_MESSAGES.has(error.message)) {
    return true;
  }
  return error.cause !== undefined && error.cause !== error && isUnavailable(error.cause);
}

/** `error` as it should leave a store: `store_unavailable` when the database could not be reached, else as it is. */
export function storeError(error: unknown): unknown {
  if (isPaykitError(error) || !isUnavailable(error)) return error;
  return new PaykitError('store_unavailable', STORE_UNAVAILABLE_MESSAGE, { cause: error, retryAfterSeconds: 1 });
}
