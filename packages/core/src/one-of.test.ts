import { describe, expect, expectTypeOf, it } from 'vitest';
import { isOneOf } from './one-of.js';

describe('isOneOf', () => {
  const MEDIA = ['application/json', 'text/plain'] as const;

  it('is true for a member and narrows to the members', () => {
    const value: string = 'text/plain';
    expect(isOneOf(MEDIA, value)).toBe(true);
    if (isOneOf(MEDIA, value)) expectTypeOf(value).toEqualTypeOf<'application/json' | 'text/plain'>();
  });

  it('is false for anything else, compared with ===', () => {
    expect(isOneOf(MEDIA, 'application/xml')).toBe(false);
    expect(isOneOf(MEDIA, 'Application/JSON')).toBe(false);
    expect(isOneOf([1, 2], '1')).toBe(false);
    expect(isOneOf(MEDIA, undefined)).toBe(false);
  });
});
