import { describe, expect, it } from 'vitest';
import { parseScopeList, scopeAllows, scopesAllowOperation } from './scopes.js';

describe('scopes', () => {
  it('lets a family scope grant each of its members, and nothing else', () => {
    expect(scopeAllows(['payments'], 'payments:refund')).toBe(true);
    expect(scopeAllows(['payments:read'], 'payments:create')).toBe(false);
    expect(scopeAllows(['payments'], 'commerce:delete')).toBe(false);
    expect(scopeAllows(['commerce:read'], 'commerce:delete')).toBe(false);
    expect(scopeAllows(['commerce'], 'commerce:delete')).toBe(true);
  });

  it('says which operations a grant allows; business info needs no particular scope', () => {
    expect(scopesAllowOperation([], 'info.get')).toBe(true);
    expect(scopesAllowOperation(['business:read'], 'paymentRequests.create')).toBe(false);
    expect(scopesAllowOperation(['payments:create'], 'paymentRequests.create')).toBe(true);
    expect(scopesAllowOperation(['payments'], 'subscriptionPlans.create')).toBe(true);
  });

  it('reads a scope list, refusing unknown names and look-alikes', () => {
    expect(parseScopeList('payments:read  business:read payments:read')).toEqual({
      ok: true,
      scopes: ['payments:read', 'business:read'],
    });
    expect(parseScopeList('payments:*')).toEqual({ ok: false, unknown: 'payments:*' });
    expect(parseScopeList('Payments')).toEqual({ ok: false, unknown: 'Payments' });
  });
});
