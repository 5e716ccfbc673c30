/**
 * A setting read from the environment at start, for the values a server cannot run without (the API key, the
 * client secret, the encryption key): when it is missing or empty, the start stops with one line that names the
 * variable and points at the caller's line, rather than an `undefined` that fails later, at a shopper's click, or
 * a `!` that tells TypeScript a guess.
 */
import { PaykitError } from '@paykit/core';
import { atCallSite } from './handler/create-handler.js';

/**
 * The value of the environment variable `name` (`process.env`, which Node, Bun and Deno have; a Worker reads its
 * bindings instead); throws `validation_failed` naming it when it is unset or empty. `hint` says where the value
 * comes from, for the message.
 *
 * @example
 * ```ts
 * const paykit = createPaykitHandler({
 *   api: { apiBaseUrl: requiredEnv('PAYMENTS_API_URL'), apiKey: requiredEnv('PAYMENTS_API_KEY', 'the dashboard') },
 *   createPaymentRequest: () => ({ amount: '12.50', currency: 'SGD' }),
 * });
 * ```
 */
export function requiredEnv(name: string, hint?: string): string {
  let value: string | undefined;
  try {
    // Typed optional: the handler runs where there is no `process` (Deno without its Node globals, workers).
    value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  } catch {
    // A runtime that refuses to read its environment (Deno without --allow-env): reported as missing below.
  }
  if (value !== undefined && value !== '') return value;
  throw atCallSite(
    new PaykitError(
      'validation_failed',
      `The environment variable ${name} is ${value === '' ? 'empty' : 'not set'}: set it where this server starts` +
        `${hint ? ` (${hint})` : ''}`,
      { errors: [{ path: name, message: value === '' ? 'is empty' : 'is not set' }] },
    ),
    requiredEnv,
  );
}
