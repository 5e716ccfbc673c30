import { describe, expect, it } from 'vitest';
import { isPaykitError } from './errors.js';
import { decodeForm, encodeForm } from './form.js';

describe('form codec', () => {
  it('round-trips arrays as key[] fields', () => {
    const params = encodeForm({
      amount: 12.5,
      currency: 'SGD',
      payment_methods: ['paynow_online', 'card'],
      skip: undefined,
    });
    expect(params.toString()).toBe(
      'amount=12.5&currency=SGD&payment_methods%5B%5D=paynow_online&payment_methods%5B%5D=card',
    );
    expect(decodeForm(params)).toEqual({ amount: '12.5', currency: 'SGD', payment_methods: ['paynow_online', 'card'] });
  });

  it('refuses a plain field given twice', () => {
    try {
      decodeForm(new URLSearchParams('amount=1&amount=1000'));
      expect.unreachable();
    } catch (error) {
      expect(isPaykitError(error, 'duplicate_parameter')).toBe(true);
    }
  });

  it('refuses prototype-polluting names and leaves Object.prototype alone', () => {
    for (const key of ['__proto__', '__proto__[]', 'constructor', 'prototype']) {
      expect(() => decodeForm(new URLSearchParams(`${key}=x`))).toThrow(/is not allowed|not allowed/);
    }
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });

  it('writes a plain object as key[inner] fields (address, metadata), and refuses one nested deeper', () => {
    const params = encodeForm({ address: { line1: '1 Harbour St', postal_code: '018956', line2: undefined } });
    expect([...params]).toEqual([
      ['address[line1]', '1 Harbour St'],
      ['address[postal_code]', '018956'],
    ]);
    expect(() => encodeForm({ nested: { a: { b: 1 } } })).toThrow(/"nested\[a\]"/);
    expect(() => encodeForm({ when: new Date(0) })).toThrow(TypeError);
  });

  it('refuses objects and nested arrays inside an array rather than sending [object Object]', () => {
    expect(() => encodeForm({ payment_methods: [{ id: 'card' }] })).toThrow(/"payment_methods\[\]"/);
    expect(() => encodeForm({ payment_methods: [['card']] })).toThrow(TypeError);
    expect(encodeForm({ flags: [true, 0] }).toString()).toBe('flags%5B%5D=true&flags%5B%5D=0');
  });
});
