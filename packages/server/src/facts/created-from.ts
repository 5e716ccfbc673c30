/**
 * What a payment request was made from, kept with the request itself so that every path that learns its fact
 * (the return, either webhook, reconcile; any instance, after any restart) can tell the hook which order it is
 * without trusting whoever asked: the shopper's choice as `createPaymentRequest` saw it, in the request's
 * `metadata`, and the `reference_number` the hook set.
 *
 * The service takes metadata values of at most 500 characters and at most 50 keys (its "Create Payment Request"),
 * so the choice's JSON is cut into 500-character parts under `paykit_choice`, `paykit_choice_2`, ...; the
 * `paykit_` keys are paykit's.
 */
import { shopperChoiceSchema, type ShopperChoice } from '@paykit/core';
import type { ConfirmedEvent, CreatedFrom } from './confirmed-event.js';

const KEY = 'paykit_choice';
const VALUE_LIMIT = 500;
const KEY_LIMIT = 50;

/** The metadata to create a request with: the hook's own, and the choice's parts; `undefined` if they do not fit. */
export function withChoice(
  metadata: Readonly<Record<string, string>> | undefined,
  choice: ShopperChoice,
): Record<string, string> | undefined {
  // Every click passes here, most without metadata of the hook's own: that case skips the entries chain.
  const own =
    metadata === undefined ? {} : Object.fromEntries(Object.entries(metadata).filter(([key]) => !isChoiceKey(key)));
  const text = JSON.stringify(choice);
  const parts: string[] = [];
  // At most VALUE_LIMIT UTF-16 units are at most as many code points: one part, the usual choice, as it is.
  if (text.length <= VALUE_LIMIT) parts.push(text);
  else {
    // Cut by code points, so that no part ends in half of a surrogate pair.
    const characters = Array.from(text);
    for (let start = 0; start < characters.length; start += VALUE_LIMIT) {
      parts.push(characters.slice(start, start + VALUE_LIMIT).join(''));
    }
  }
  if (Object.keys(own).length + parts.length > KEY_LIMIT) return undefined;
  return { ...own, ...Object.fromEntries(parts.map((part, index) => [keyOf(index), part])) };
}

/** What a payment request event's request was made from; `undefined` for other events and foreign requests. */
export function createdFromOf(event: ConfirmedEvent): CreatedFrom | undefined {
  if (!('paymentRequest' in event)) return undefined;
  const request = event.paymentRequest;
  const choice = choiceOf(request.metadata);
  const referenceNumber = typeof request.reference_number === 'string' ? request.reference_number : undefined;
  return choice === undefined && referenceNumber === undefined ? undefined : { choice, referenceNumber };
}

/** The choice read back from the metadata, if its parts are all there and it is still a valid choice. */
function choiceOf(metadata: Readonly<Record<string, unknown>> | null | undefined): ShopperChoice | undefined {
  if (!metadata || typeof metadata[KEY] !== 'string') return undefined;
  let text = '';
  for (let index = 0; typeof metadata[keyOf(index)] === 'string'; index += 1) text += String(metadata[keyOf(index)]);
  try {
    const parsed = shopperChoiceSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function keyOf(index: number): string {
  return index === 0 ? KEY : `${KEY}_${index + 1}`;
}

function isChoiceKey(key: string): boolean {
  return key === KEY || /^paykit_choice_\d+$/.test(key);
}
