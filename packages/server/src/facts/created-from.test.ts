/**
 * The shopper's choice kept in a payment request's metadata: one value when it fits in one (the usual choice),
 * otherwise cut into parts of at most 500 code points, never in half of a surrogate pair, read back whole.
 */
import type { PaymentRequest } from '@paykit/core';
import { describe, expect, it } from 'vitest';
import type { ConfirmedEvent } from '../handler/options.js';
import { createdFromOf, withChoice } from './created-from.js';

/** Half of a surrogate pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The choice read back from `metadata` as a completed payment request's event would carry it. */
function readBack(metadata: Record<string, string>) {
  const paymentRequest = { id: 'pr_1', status: 'completed', metadata } as unknown as PaymentRequest;
  const event = { type: 'payment_request.completed', fact: 'f', source: 'return', paymentRequest };
  return createdFromOf(event as ConfirmedEvent)?.choice;
}

describe('withChoice', () => {
  it('keeps a short choice as one value beside the hook’s own keys, dropping old choice keys', () => {
    const choice = { reference: 'cart-1', amount: '12.50', currency: 'SGD' };
    const metadata = withChoice({ order: '7', paykit_choice_2: 'stale' }, choice);
    expect(metadata).toEqual({ order: '7', paykit_choice: JSON.stringify(choice) });
    expect(readBack(metadata!)).toEqual(choice);
  });

  it('cuts a long choice into parts of at most 500 code points, none ending in half of a surrogate pair', () => {
    // 😀 is two UTF-16 units: the 500th code point is the 5th 😀, whose halves a cut at 500 units would part.
    const choice = { purpose: 'a'.repeat(255), reference: 'r'.repeat(199), merchant: '😀'.repeat(127) };
    const text = JSON.stringify(choice);
    const metadata = withChoice(undefined, choice)!;
    const parts = Object.keys(metadata).map((key) => metadata[key]!);
    expect(Object.keys(metadata)).toEqual(['paykit_choice', 'paykit_choice_2']);
    expect(parts.join('')).toBe(text);
    for (const part of parts) {
      expect(Array.from(part).length).toBeLessThanOrEqual(500);
      expect(part).not.toMatch(LONE_SURROGATE);
    }
    expect(text.indexOf('😀')).toBe(495);
    expect(Array.from(parts[0]!).length).toBe(500);
    expect(parts[0]!.endsWith('😀'.repeat(5))).toBe(true);
    expect(readBack(metadata)).toEqual(choice);
  });

  it('gives up when the hook’s keys and the parts would pass 50 keys', () => {
    const own = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    expect(withChoice(own, { reference: 'cart-1' })).toBeUndefined();
  });
});
