/**
 * What a failed token request becomes: a refused grant, a refused client or a network failure, each as a
 * `PaykitError` a platform developer can act on, the upstream's words kept in the message and its cause.
 */
import * as oauth from 'oauth4webapi';
import { PaykitError } from '@paykit/core';

/** A refused refresh: `invalid_grant` is revocation (the merchant must connect again). */
export function refreshFailure(error: unknown): PaykitError {
  return tokenFailure(error, 'The authorization is no longer valid', '; connect the merchant again');
}

/**
 * A refused code exchange. The callback route answers the browser in the shop's own words; the upstream's
 * words stay in this message and its cause, for the log.
 */
export function exchangeFailure(error: unknown): PaykitError {
  return tokenFailure(error, 'The token endpoint refused the authorization code', '');
}

/** An OAuth error answer, in words a platform developer can act on; the secret and the code stay out. */
function tokenFailure(error: unknown, invalidGrant: string, advice: string): PaykitError {
  if (error instanceof oauth.ResponseBodyError) {
    const described = `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
    if (error.error === 'invalid_grant') {
      return new PaykitError('unauthorized', `${invalidGrant} (${described})${advice}`, {
        status: error.status,
        cause: error,
      });
    }
    if (error.error === 'invalid_client') {
      return new PaykitError('unauthorized', `The token endpoint refused the client credentials (${described})`, {
        status: error.status,
        cause: error,
      });
    }
    return new PaykitError('upstream_error', `The token endpoint refused the request (${described})`, {
      status: error.status,
      cause: error,
    });
  }
  return new PaykitError(
    'upstream_invalid_response',
    'The token endpoint answered with something that is not a token response',
    { cause: error },
  );
}

/** A request that got no answer: `timeout` past the time limit, `network_error` otherwise. */
export function networkFailure(error: unknown): PaykitError {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return new PaykitError('timeout', 'The token endpoint did not answer in time', {
      cause: error,
      origin: 'upstream',
    });
  }
  return new PaykitError('network_error', 'Could not reach the token endpoint', { cause: error, origin: 'upstream' });
}
