/**
 * How the sandbox answers a failure. Every route throws core's `PaykitError(code, message, { errors })`; the app's
 * `onError` answers it with the status core's `httpStatusOf` gives the code (the table the server's handler uses
 * too) and the body {@link sandboxErrorBody} makes. OAuth's own errors (RFC 6749 `{ error, error_description }`)
 * are another mechanism: `oauth/oauth-error.ts`.
 */
import { PaykitError, type ErrorCode, type FieldError } from '@paykit/core';

/**
 * The JSON body of a sandbox error: `{ message }` as spec 7 shows it, paykit's stable `code` beside it, and field
 * errors in the shape the real service documents for its 422s (its OpenAPI, `api-evangelist/hitpay`,
 * `openapi/hitpay-payment-requests-api-openapi.yml`): `{ "<field>": ["<text>", ...] }`.
 */
export interface SandboxErrorBody {
  message: string;
  code: ErrorCode;
  errors?: Record<string, string[]>;
}

/**
 * The body of `error`. Field errors are grouped by path, in the order they came (`amount` twice gives one key with
 * two texts). Built through `Object.fromEntries`, so a path such as `__proto__` (a refused form field) is an own
 * key like any other, never the object's prototype.
 */
export function sandboxErrorBody(error: PaykitError): SandboxErrorBody {
  const body: SandboxErrorBody = { message: error.message, code: error.code };
  if (error.errors?.length) body.errors = fieldErrorMap(error.errors);
  return body;
}

function fieldErrorMap(errors: readonly FieldError[]): Record<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const { path, message } of errors) byPath.set(path, [...(byPath.get(path) ?? []), message]);
  return Object.fromEntries(byPath);
}

/**
 * What a refused Bearer token is told in `WWW-Authenticate` (RFC 6750 section 3.1): `invalid_token` for a token
 * that is unknown, expired or revoked; `insufficient_scope` with the scope that would have been enough, when the
 * sandbox can name one.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3.1
 */
export type BearerChallenge = { error: 'invalid_token' } | { error: 'insufficient_scope'; scope?: string };

/**
 * A `PaykitError` for a refused Bearer token (`unauthorized` or `forbidden`) that carries its RFC 6750 challenge,
 * so that the one answering place can send `WWW-Authenticate` without any route writing headers itself.
 */
export class BearerTokenError extends PaykitError {
  override readonly name: string = 'BearerTokenError';

  constructor(
    code: 'unauthorized' | 'forbidden',
    message: string,
    /** The challenge sent in `WWW-Authenticate`. */
    readonly challenge: BearerChallenge,
  ) {
    super(code, message);
  }
}

/** The `WWW-Authenticate` header of a {@link BearerChallenge}: `Bearer error="insufficient_scope", scope="..."`. */
export function bearerChallengeHeader(challenge: BearerChallenge): string {
  const scope = challenge.error === 'insufficient_scope' && challenge.scope ? `, scope="${challenge.scope}"` : '';
  return `Bearer error="${challenge.error}"${scope}`;
}

/** `not_found` with the message the API would give ("Payout not found"). */
export const notFound = (message: string): PaykitError => new PaykitError('not_found', message);
