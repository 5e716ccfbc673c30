import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMinor, MAX_AMOUNT_MINOR, minorToMajor, parseAmount } from './amounts.js';
import { paymentRequestCreateSchema } from './schemas/payment-request.js';

/** Values an attacker or a careless caller sends where an amount belongs. */
const hostileAmount = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, 0, 0.1 + 0.2, 1e21, 5e-324, Number.MAX_SAFE_INTEGER + 2),
  fc.string(),
  fc.constantFrom('1e3', '0x10', ' 12', '12 ', '1,000.00', '12.345', '-0', '٣', '１２', '12.', '.5', '+5', ''),
  fc.anything(),
);

describe('amounts under random and hostile input', () => {
  it('parseAmount never throws, and what it accepts is in range and round-trips exactly', () => {
    fc.assert(
      fc.property(hostileAmount, (value) => {
        const parsed = parseAmount(value);
        if (!parsed.ok) return typeof parsed.reason === 'string' && parsed.reason.length > 0;
        expect(Number.isInteger(parsed.minor)).toBe(true);
        expect(parsed.minor).toBeGreaterThan(0);
        expect(parsed.minor).toBeLessThanOrEqual(MAX_AMOUNT_MINOR);
        expect(parseAmount(formatMinor(parsed.minor))).toEqual(parsed);
        expect(parseAmount(minorToMajor(parsed.minor))).toEqual(parsed);
        return true;
      }),
      { numRuns: 2000 },
    );
  });

  it('every whole number of cents from 1 to the maximum survives formatting and parsing', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_AMOUNT_MINOR }), (minor) => {
        expect(parseAmount(formatMinor(minor))).toEqual({ ok: true, minor });
        expect(parseAmount(minorToMajor(minor))).toEqual({ ok: true, minor });
      }),
      { numRuns: 2000 },
    );
  });

  it('the create schema answers any body with data or field errors, never an exception', () => {
    const body = fc.oneof(
      fc.anything(),
      fc.record(
        {
          amount: hostileAmount,
          currency: fc.oneof(fc.string(), fc.constantFrom('sgd', 'SGD', 'sg', 'SGDD', '€€€')),
          email: fc.oneof(fc.emailAddress(), fc.string()),
          redirect_url: fc.oneof(
            fc.webUrl(),
            fc.constantFrom('javascript:alert(1)', 'data:text/html,x', '//evil.example'),
          ),
          platform_commission_amount: hostileAmount,
          payment_methods: fc.array(fc.string()),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(body, (input) => {
        const result = paymentRequestCreateSchema.safeParse(input);
        if (result.success) {
          const amount = parseAmount(result.data.amount);
          expect(amount.ok).toBe(true);
          if (result.data.platform_commission_amount !== undefined) {
            const commission = parseAmount(result.data.platform_commission_amount);
            expect(commission.ok && amount.ok && commission.minor < amount.minor).toBe(true);
          }
        } else {
          for (const issue of result.error.issues) expect(issue.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
