/**
 * What a transfer moves and costs, computed once for `POST /v1/transfers/estimate` and `POST /v1/transfers` so
 * that an estimate and the transfer made right after it agree to the cent, and the ledger debits what the
 * transfer says (source amount, plus the fee the payer bears).
 */
import { majorToMinor, minorToMajor } from '@paykit/core';
import { exchangeRate, rateText } from './exchange-rates.js';
import { transferFeeMinor } from './ledger.js';
import type { ResourceOf } from './resources.js';
import type { WireOf } from './wire.js';

/** A transfer's amounts, in minor units of their currencies. */
export interface TransferQuote {
  sourceCurrency: string;
  paymentCurrency: string;
  sourceMinor: number;
  paymentMinor: number;
  /** Payment units per source unit. */
  rate: number;
  /** The fee in the source currency. */
  feeMinor: number;
  /** The same fee in the payment currency. */
  paymentFeeMinor: number;
  /** The sandbox's payer always bears the fee, as in the service's transfer examples. */
  feePayer: 'payer';
}

/**
 * Quotes a transfer from `sourceCurrency` to the beneficiary's `paymentCurrency`. When `paymentAmount` is
 * given it decides (the beneficiary receives what was asked) and the source amount follows from the rate;
 * otherwise `sourceAmount` does. Every currency is counted in hundredths (a sandbox simplification).
 */
export function quoteTransfer(input: {
  sourceCurrency: string;
  paymentCurrency: string;
  sourceAmount: number | undefined;
  paymentAmount: number | undefined;
}): TransferQuote {
  const sourceCurrency = input.sourceCurrency.toLowerCase();
  const paymentCurrency = input.paymentCurrency.toLowerCase();
  const rate = exchangeRate(sourceCurrency, paymentCurrency);
  let sourceMinor: number;
  let paymentMinor: number;
  if (input.paymentAmount !== undefined) {
    paymentMinor = majorToMinor(input.paymentAmount, { field: 'payment_amount' });
    sourceMinor = Math.round(paymentMinor / rate);
  } else {
    sourceMinor = majorToMinor(input.sourceAmount, { field: 'source_amount' });
    paymentMinor = Math.round(sourceMinor * rate);
  }
  const feeMinor = transferFeeMinor(sourceMinor, sourceCurrency !== paymentCurrency);
  return {
    sourceCurrency,
    paymentCurrency,
    sourceMinor,
    paymentMinor,
    rate,
    feeMinor,
    paymentFeeMinor: Math.round(feeMinor * rate),
    feePayer: 'payer',
  };
}

/** The answer of `POST /v1/transfers/estimate`, in the service's field names. */
export function estimateJson(quote: TransferQuote): WireOf<'transfers.estimate'> {
  return {
    source_amount: minorToMajor(quote.sourceMinor),
    source_amount_fees: minorToMajor(quote.feeMinor),
    source_currency: quote.sourceCurrency,
    exchange_rate: rateText(quote.rate),
    fx_pair: `${quote.sourceCurrency}${quote.paymentCurrency}`,
    payment_amount: minorToMajor(quote.paymentMinor),
    payment_amount_fees: minorToMajor(quote.paymentFeeMinor),
    payment_currency: quote.paymentCurrency,
    fee_payer: quote.feePayer,
    fee_currency: quote.sourceCurrency,
  };
}

/** The money fields of a transfer record, in the service's field names. */
export function transferMoneyJson(
  quote: TransferQuote,
): Pick<
  ResourceOf<'transfers'>,
  'payment_currency' | 'payment_amount' | 'source_currency' | 'source_amount' | 'exchange_rate' | 'fee'
> & { discount_fee_rate: number; fixed_fee: number; discount_fee: number } {
  return {
    payment_currency: quote.paymentCurrency,
    payment_amount: minorToMajor(quote.paymentMinor),
    source_currency: quote.sourceCurrency,
    source_amount: minorToMajor(quote.sourceMinor),
    exchange_rate: rateText(quote.rate),
    fee: { amount: minorToMajor(quote.feeMinor), currency: quote.sourceCurrency, paid_by: quote.feePayer },
    // The service's transfer detail carries these three; the sandbox gives no discounts.
    discount_fee_rate: 0,
    fixed_fee: 0,
    discount_fee: 0,
  };
}
