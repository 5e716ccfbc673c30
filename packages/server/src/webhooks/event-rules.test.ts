/**
 * The table of event rules: every event the service can send says what the API must show for it to be believed
 * (without a salt, that re-fetch is the only proof), and a status an event is sent with confirms it.
 */
import { webhookEventTypes } from '@paykit/core';
import { describe, expect, it } from 'vitest';
import { EVENT_RULES, isConfirmedBy } from './event-rules.js';

describe('EVENT_RULES', () => {
  it('gives every event a confirmation: statuses the API must show, or an explicit "exists"', () => {
    const unconfirmed = webhookEventTypes.filter((type) => {
      const confirmedBy: unknown = EVENT_RULES[type]?.confirmedBy;
      return !(confirmedBy === 'exists' || (Array.isArray(confirmedBy) && confirmedBy.length > 0));
    });
    expect(unconfirmed).toEqual([]);
  });

  it('confirms an event sent with a status when the API still shows it', () => {
    for (const type of webhookEventTypes) {
      const { sentWith } = EVENT_RULES[type];
      if (sentWith !== undefined) expect(isConfirmedBy(type, sentWith), type).toBe(true);
    }
  });

  it('believes charge.updated only of a refunded or partly refunded charge', () => {
    expect(isConfirmedBy('charge.updated', 'succeeded')).toBe(false);
    expect(isConfirmedBy('charge.updated', 'pending')).toBe(false);
    expect(isConfirmedBy('charge.updated', 'refunded')).toBe(true);
    expect(isConfirmedBy('charge.updated', 'partially_refunded')).toBe(true);
  });

  it('believes payout.created only of a paid payout', () => {
    expect(
      ['scheduled', 'processing', 'paid', 'failed', 'canceled', 'pending'].filter((status) =>
        isConfirmedBy('payout.created', status),
      ),
    ).toEqual(['paid']);
  });
});
