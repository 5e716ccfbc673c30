/**
 * Each business's balance, as entries (spec 2.6): a paid charge credits the merchant, its processing fee and
 * any platform commission are debited from it, and the commission is credited to the platform (spec 5.4.7).
 *
 * The sandbox's processing fee is 3.4% + 0.50, rounded half up to the cent: a paykit choice, the spec shows none.
 * A transfer debits its source amount and, when the payer bears it, its fee (see {@link transferFeeMinor}).
 */
import { newId } from './ids.js';

/** One ledger entry; amounts in minor units, debits negative. */
export interface LedgerEntry {
  id: string;
  businessId: string;
  at: Date;
  description: string;
  chargeId: string | null;
  payoutId: string | null;
  transferId: string | null;
  creditMinor: number | null;
  debitMinor: number | null;
  currency: string;
}

/** The sandbox's processing fee: a fixed part and a rate, as the service's charges name them. */
export const PROCESSING_FEE = { fixedMinor: 50, ratePercent: 3.4 } as const;

/**
 * The parts of the fee on a charge of `amountMinor`, in the service's charge fields: `fixed_fee`, and
 * `discount_fee` at `discount_fee_rate` percent (its example: 70.56 at 3.65% is 2.57, plus 0.60 fixed).
 */
export function processingFeeParts(amountMinor: number): {
  fixedMinor: number;
  rateMinor: number;
  ratePercent: number;
} {
  return {
    fixedMinor: PROCESSING_FEE.fixedMinor,
    rateMinor: Math.round((amountMinor * PROCESSING_FEE.ratePercent) / 100),
    ratePercent: PROCESSING_FEE.ratePercent,
  };
}

/** The fee on a charge of `amountMinor`: what the ledger debits, the sum of {@link processingFeeParts}. */
export function processingFeeMinor(amountMinor: number): number {
  const parts = processingFeeParts(amountMinor);
  return parts.fixedMinor + parts.rateMinor;
}

/**
 * The fee on a transfer of `sourceMinor`, in the source currency: 0.50 within one currency, 1% (half up) + 3.00
 * across currencies. A paykit choice: the service's examples show fees of 0 and 10 on same-currency transfers
 * and give no rule.
 */
export function transferFeeMinor(sourceMinor: number, crossCurrency: boolean): number {
  return crossCurrency ? Math.round(sourceMinor * 0.01) + 300 : 50;
}

/** The entries of every business. */
export class Ledger {
  readonly entries: LedgerEntry[] = [];
  #clock: (businessId: string) => Date = () => new Date();

  /** Stamps entries on their business's clock (set once by the sandbox's start). */
  useClock(clock: (businessId: string) => Date): void {
    this.#clock = clock;
  }

  /** Adds an entry. */
  add(
    entry: Omit<LedgerEntry, 'id' | 'at' | 'payoutId' | 'transferId'> &
      Partial<Pick<LedgerEntry, 'payoutId' | 'transferId'>>,
  ): LedgerEntry {
    const full: LedgerEntry = {
      id: newId(),
      at: this.#clock(entry.businessId),
      payoutId: null,
      transferId: null,
      ...entry,
    };
    this.entries.push(full);
    return full;
  }

  /** The balance of a business in minor units; with `currency` (any case), of that currency only. */
  balanceMinor(businessId: string, currency?: string): number {
    const code = currency?.toLowerCase();
    return this.entries
      .filter((e) => e.businessId === businessId && (code === undefined || e.currency.toLowerCase() === code))
      .reduce((sum, e) => sum + (e.creditMinor ?? 0) + (e.debitMinor ?? 0), 0);
  }

  /** Records a paid charge: gross to the merchant, fee and commission from it, commission to the platform. */
  recordCharge(input: {
    chargeId: string;
    businessId: string;
    platformBusinessId: string | null;
    amountMinor: number;
    commissionMinor: number | null;
    currency: string;
  }): void {
    const { chargeId, businessId, currency } = input;
    const base = { chargeId, currency };
    this.add({
      ...base,
      businessId,
      description: `Charge ${chargeId} received`,
      creditMinor: input.amountMinor,
      debitMinor: null,
    });
    this.add({
      ...base,
      businessId,
      description: `Processing fee for charge ${chargeId}`,
      creditMinor: null,
      debitMinor: -processingFeeMinor(input.amountMinor),
    });
    if (input.commissionMinor && input.platformBusinessId) {
      this.add({
        ...base,
        businessId,
        description: `Platform commission on charge ${chargeId}`,
        creditMinor: null,
        debitMinor: -input.commissionMinor,
      });
      this.add({
        ...base,
        businessId: input.platformBusinessId,
        description: `Commission on charge ${chargeId}`,
        creditMinor: input.commissionMinor,
        debitMinor: null,
      });
    }
  }

  /**
   * Records a transfer out of a business: its source amount, and its fee when the payer bears it, each a debit
   * in the source currency carrying the transfer's id (spec 2.6 `transfer_id`).
   */
  recordTransfer(input: {
    transferId: string;
    businessId: string;
    beneficiaryId: string;
    sourceMinor: number;
    feeMinor: number;
    currency: string;
  }): void {
    const { transferId, businessId } = input;
    const base = { businessId, transferId, chargeId: null, creditMinor: null, currency: input.currency.toLowerCase() };
    this.add({
      ...base,
      description: `Transfer ${transferId} to beneficiary ${input.beneficiaryId}`,
      debitMinor: -input.sourceMinor,
    });
    if (input.feeMinor > 0) {
      this.add({ ...base, description: `Fee for transfer ${transferId}`, debitMinor: -input.feeMinor });
    }
  }

  /** Forgets every entry. */
  reset(): void {
    this.entries.length = 0;
  }
}
