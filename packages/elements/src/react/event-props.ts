'use client';
/**
 * `eventProps`: the `events` map `@lit/react`'s `createComponent` takes, typed from the DOM event map, so that
 * a prop's event type follows from its event name and a misspelt name is a type error.
 */
import type { EventName } from '@lit/react';

/**
 * Types each event name by the event `HTMLElementEventMap` (extended in `../events.ts`) says it carries.
 * `EventName` is a string branded with its event type in types only: the names go on as they are.
 *
 * @see https://lit.dev/docs/frameworks/react/#createcomponent
 */
export function eventProps<T extends Record<string, keyof HTMLElementEventMap>>(
  names: T,
): { [P in keyof T]: EventName<HTMLElementEventMap[T[P]]> };
export function eventProps(names: Record<string, string>): Record<string, string> {
  return names;
}
