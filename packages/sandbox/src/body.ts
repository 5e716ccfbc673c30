/**
 * Reading request bodies: JSON or form-urlencoded, size-limited before parsing, never a crash on bad input.
 */
import { decodeForm, isPaykitError } from '@paykit/core';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { SandboxError } from './errors.js';

/** The largest body the sandbox reads: 64 KiB. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The app-wide limit: every route that reads a body (the pages' forms too) stops at {@link MAX_BODY_BYTES}, also
 * when the body comes in chunks of unknown total length, so nothing reads an endless upload into memory.
 * A declared length is checked from the header alone (Node's parser never reads past it); only a chunked body
 * goes through `hono/body-limit`, because touching `request.body` halves the sandbox's throughput.
 */
export function bodyLimitMiddleware(): MiddlewareHandler {
  const chunked = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: () => Promise.reject(tooLarge()) });
  return (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = c.req.header('content-length');
    if (declared === undefined) return chunked(c, next);
    if (Number(declared) > MAX_BODY_BYTES) throw tooLarge();
    return next();
  };
}

/** Reads a JSON object or a form body (`payment_methods[]` as an array), or throws a {@link SandboxError}. */
export async function readBody(request: Request, options: { form?: boolean } = {}): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw tooLarge();
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded' && options.form !== false) {
    try {
      return decodeForm(new URLSearchParams(text));
    } catch (error) {
      if (isPaykitError(error)) throw new SandboxError(error.status ?? 400, error.message, error.code, error.errors);
      throw error;
    }
  }
  if (type !== 'application/json' && !(type === '' && text === '')) {
    throw new SandboxError(
      415,
      'Send the body as application/json or application/x-www-form-urlencoded',
      'unsupported_media_type',
    );
  }
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SandboxError(400, 'The body is not well-formed JSON', 'invalid_json');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SandboxError(400, 'The body must be a JSON object', 'invalid_json');
  }
  return value as Record<string, unknown>;
}

function tooLarge(): SandboxError {
  return new SandboxError(413, `The body is larger than ${MAX_BODY_BYTES} bytes`, 'payload_too_large');
}
