/**
 * `isOneOf`: `includes` as a type guard. A readonly tuple's `includes` takes only its own literals, so asking
 * whether any string is one of them needed a widening cast at each call; this asks once, without one.
 */

/** True when `value` is one of `values` (compared with `===`), which narrows it to their type. */
export function isOneOf<const T>(values: readonly T[], value: unknown): value is T {
  return values.some((each) => each === value);
}
