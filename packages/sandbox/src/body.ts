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
      return nestBrackets(decodeForm(new URLSearchParams(text)));
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

/** `name[key]`: one level of nesting, the form encoding the real service takes for `address` and `metadata`. */
const BRACKETED = /^([^[\]]+)\[([^[\]]+)\]$/;
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Turns `address[line1]=...&address[city]=...` into `{ address: { line1, city } }`, as a JSON body would send
 * it, so that a field reads the same either way. A name used both plain and bracketed is a duplicate (400), and
 * `__proto__`-like keys are refused as `decodeForm` refuses them at the top level.
 */
export function nestBrackets(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) {
    const match = BRACKETED.exec(key);
    if (!match) {
      if (key in out) throw duplicate(key);
      out[key] = value;
      continue;
    }
    const [, name, inner] = match as unknown as [string, string, string];
    if (FORBIDDEN.has(name) || FORBIDDEN.has(inner)) {
      throw new SandboxError(422, `Form field "${key}" is not allowed`, 'validation_failed', [
        { path: key, message: 'is not allowed' },
      ]);
    }
    const group = out[name] ?? (out[name] = Object.create(null) as Record<string, unknown>);
    if (typeof group !== 'object' || group === null || Array.isArray(group) || inner in group) throw duplicate(name);
    (group as Record<string, unknown>)[inner] = value;
  }
  // Plain objects again (zod and JSON handle prototype-less ones, but callers may spread or compare them).
  return Object.fromEntries(
    Object.entries(out).map(([key, value]) =>
      typeof value === 'object' && value !== null && !Array.isArray(value) ? [key, { ...value }] : [key, value],
    ),
  );
}

function duplicate(name: string): SandboxError {
  return new SandboxError(400, `Form field "${name}" appears more than once`, 'duplicate_parameter', [
    { path: name, message: 'appears more than once' },
  ]);
}

function tooLarge(): SandboxError {
  return new SandboxError(413, `The body is larger than ${MAX_BODY_BYTES} bytes`, 'payload_too_large');
}
