import { describe, expect, it } from 'vitest';
import { isPaykitError, type PaykitError } from './errors.js';
import { httpStatusOf } from './http-status.js';
import {
  currencyDecimals,
  currencyMinorUnit,
  formatMinor,
  majorToMinor,
  MAX_AMOUNT_MINOR,
  minorToMajor,
  parseAmount,
} from './amounts.js';

describe('parseAmount', () => {
  it.each([
    ['12.50', 1250],
    ['12.5', 1250],
    [12.5, 1250],
    [0.01, 1],
    ['0.30', 30],
    [999999999.99, MAX_AMOUNT_MINOR],
    ['19.99', 1999],
  ])('reads %s as %i minor units', (input, minor) => {
    expect(parseAmount(input)).toEqual({ ok: true, minor });
  });

  it('adds 0.1 and 0.2 exactly in minor units', () => {
    const a = parseAmount(0.1);
    const b = parseAmount(0.2);
    if (!a.ok || !b.ok) throw new Error('0.1 and 0.2 are amounts');
    expect(a.minor + b.minor).toBe(30);
    expect(formatMinor(a.minor + b.minor)).toBe('0.30');
    expect(minorToMajor(a.minor + b.minor)).toBe(0.3);
  });

  it.each([
    [0.1 + 0.2, 'must have at most two decimal places'],
    ['1.005', 'must have at most two decimal places'],
    [0, 'must be greater than 0'],
    [-0, 'must be greater than 0'],
    ['0.00', 'must be greater than 0'],
    [-5, 'must be greater than 0'],
    ['-0.01', 'must be greater than 0'],
    [Number.NaN, 'must be a finite number'],
    [Number.POSITIVE_INFINITY, 'must be a finite number'],
    [1e21, 'must be a decimal number such as 12.50'],
    [1e-7, 'must be a decimal number such as 12.50'],
    ['1e3', 'must be a decimal number such as 12.50'],
    ['0x10', 'must be a decimal number such as 12.50'],
    [' 12', 'must be a decimal number such as 12.50'],
    ['12.', 'must be a decimal number such as 12.50'],
    ['', 'must be a decimal number such as 12.50'],
    ['1000000000', 'must be at most 999999999.99'],
    [1_000_000_000, 'must be at most 999999999.99'],
    [null, 'must be a number'],
    [true, 'must be a number'],
  ])('refuses %s: %s', (input, reason) => {
    expect(parseAmount(input)).toEqual({ ok: false, reason });
  });
});

describe('formatMinor', () => {
  it.each([
    [1250, '12.50'],
    [1, '0.01'],
    [0, '0.00'],
    [-1999, '-19.99'],
  ])('formats %i as %s', (minor, text) => {
    expect(formatMinor(minor)).toBe(text);
  });
});

describe('majorToMinor', () => {
  it.each([
    [12.5, 1250],
    ['12.50', 1250],
    [0.01, 1],
    [999999999.99, MAX_AMOUNT_MINOR],
  ])('reads %s as %i minor units', (input, minor) => {
    expect(majorToMinor(input)).toBe(minor);
  });

  it.each([[0], [-1], [0.1 + 0.2], ['abc'], [Number.NaN], [undefined], [1e21]])(
    'throws for %s instead of answering 0 or a rounded guess',
    (input) => {
      let thrown: unknown;
      try {
        majorToMinor(input, { field: 'price' });
      } catch (error) {
        thrown = error;
      }
      expect(isPaykitError(thrown, 'validation_failed')).toBe(true);
      expect((thrown as Error).message).toMatch(/^price /);
      // paykit's own refusal: no upstream status; answered with its code's (422).
      expect((thrown as PaykitError).origin).toBe('local');
      expect((thrown as PaykitError).status).toBeUndefined();
      expect(httpStatusOf((thrown as PaykitError).code)).toBe(422);
    },
  );

  it('takes 0 only when asked, for totals that start at nothing', () => {
    expect(majorToMinor(0, { allowZero: true })).toBe(0);
    expect(() => majorToMinor(-0.5, { allowZero: true })).toThrow('must be greater than 0');
  });
});

describe('decimals by currency (ISO 4217 minor unit, as Intl.NumberFormat reports it; at most two, the API’s)', () => {
  it('knows each currency’s decimals', () => {
    expect(currencyDecimals('JPY')).toBe(0);
    expect(currencyDecimals('krw')).toBe(0);
    // Each code's answer is kept: asked again, in another case, it is the same.
    expect(currencyDecimals('KRW')).toBe(0);
    expect(currencyDecimals('sgd')).toBe(2);
    expect(currencyDecimals('SGD')).toBe(2);
    expect(currencyDecimals('KWD')).toBe(2);
    expect(currencyDecimals('BHD')).toBe(2);
    expect(currencyDecimals('not a code')).toBeUndefined();
  });

  it('knows each currency’s own minor unit, three digits included (what a price may show; the elements check it)', () => {
    expect(currencyMinorUnit('KWD')).toBe(3);
    expect(currencyMinorUnit('bhd')).toBe(3);
    expect(currencyMinorUnit('JPY')).toBe(0);
    expect(currencyMinorUnit('SGD')).toBe(2);
    // Kept per code: the capped answer of currencyDecimals does not leak into it, nor the other way.
    expect(currencyDecimals('KWD')).toBe(2);
    expect(currencyMinorUnit('KWD')).toBe(3);
    expect(currencyMinorUnit(undefined)).toBeUndefined();
    expect(currencyMinorUnit('')).toBeUndefined();
    expect(currencyMinorUnit('SDGX')).toBeUndefined();
  });

  it('refuses an amount the currency cannot have, naming the currency; never rounds it', () => {
    expect(parseAmount('1250.50', 'JPY')).toEqual({ ok: false, reason: 'must have no decimal places in JPY' });
    expect(parseAmount(1250.5, 'jpy')).toEqual({ ok: false, reason: 'must have no decimal places in JPY' });
    expect(parseAmount('0.01', 'JPY')).toEqual({ ok: false, reason: 'must have no decimal places in JPY' });
    expect(parseAmount('12.345', 'KWD')).toEqual({ ok: false, reason: 'must have at most two decimal places' });
  });

  it('takes what the currency can have, trailing zeros included (the API writes two decimals)', () => {
    expect(parseAmount('1250', 'JPY')).toEqual({ ok: true, minor: 125000 });
    expect(parseAmount('1250.00', 'JPY')).toEqual({ ok: true, minor: 125000 });
    expect(parseAmount('12.50', 'SGD')).toEqual({ ok: true, minor: 1250 });
    expect(parseAmount('1.5', 'BHD')).toEqual({ ok: true, minor: 150 });
    // A code Intl refuses is the currency field's to report, not the amount's.
    expect(parseAmount('12.50', 'XX')).toEqual({ ok: true, minor: 1250 });
  });
});
