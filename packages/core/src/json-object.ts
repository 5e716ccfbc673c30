/**
 * `isJsonObject`: the check every reader of a JSON body makes (an object, not `null`, not an array), as a type
 * guard, so that what passed it is indexable without a cast.
 */

/** True when `value` is an object that is neither `null` nor an array: a JSON object once parsed. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
