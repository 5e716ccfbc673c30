/**
 * Form bodies (`application/x-www-form-urlencoded`) as the Payments API reads and writes them, `key[]` arrays and
 * `key[inner]` objects included: one codec for the clients and the sandbox, so both sides agree on the wire.
 */
import { PaykitError } from './errors.js';

/** A decoded `application/x-www-form-urlencoded` body: `key[]` fields become arrays under `key`. */
export type FormFields = Record<string, string | string[]>;

/**
 * Decodes a form body the way the Payments API reads it: `payment_methods[]=a&payment_methods[]=b` becomes
 * `{ payment_methods: ['a', 'b'] }`. A plain key given twice is refused (`duplicate_parameter`) rather than
 * silently keeping one of the values, and so are the prototype-polluting names `__proto__`, `constructor`
 * and `prototype`.
 */
export function decodeForm(params: URLSearchParams): FormFields {
  // No prototype: a key such as `toString` is a field like any other (Object.create is typed `any`).
  const fields: FormFields = Object.create(null);
  for (const [rawKey, value] of params) {
    const isArray = rawKey.endsWith('[]');
    const key = isArray ? rawKey.slice(0, -2) : rawKey;
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') {
      throw new PaykitError('validation_failed', `Form field "${key}" is not allowed`, {
        errors: [{ path: key, message: 'is not allowed' }],
      });
    }
    const existing = fields[key];
    if (isArray) {
      if (typeof existing === 'string') throw duplicate(key);
      fields[key] = [...(existing ?? []), value];
    } else {
      if (existing !== undefined) throw duplicate(key);
      fields[key] = value;
    }
  }
  return { ...fields };
}

/**
 * Encodes an object as a form body. Arrays of scalars become repeated `key[]` fields, a plain object of scalars
 * becomes `key[inner]` fields (the real service's form for `address` and `metadata`), booleans `true`/`false`,
 * numbers their plain decimal text; `undefined` and `null` fields are left out. Anything else (an object two
 * levels deep, a nested array, a function) is a `TypeError`, never `[object Object]` on the wire.
 */
export function encodeForm(body: Readonly<Record<string, unknown>>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      // Array.isArray types the items `any`; they are unknown until `scalar` checks each.
      for (const item of value as unknown[]) params.append(`${key}[]`, scalar(`${key}[]`, item));
    } else if (isPlainObject(value)) {
      for (const [inner, item] of Object.entries(value)) {
        if (item !== undefined && item !== null) params.append(`${key}[${inner}]`, scalar(`${key}[${inner}]`, item));
      }
    } else {
      params.append(key, scalar(key, value));
    }
  }
  return params;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The form text of a string, number or boolean. */
function scalar(key: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new TypeError(`Form field "${key}" must be a string, number, boolean or array of them`);
}

function duplicate(key: string): PaykitError {
  return new PaykitError('duplicate_parameter', `Form field "${key}" appears more than once`, {
    errors: [{ path: key, message: 'appears more than once' }],
  });
}
