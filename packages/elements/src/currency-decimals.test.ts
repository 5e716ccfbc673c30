import { expect, fixture, html } from '@open-wc/testing';
import { PaykitError } from '@paykit/core/browser';
import type { PaykitErrorEvent } from './events.js';
import { backendState, consoleDuring, next } from '../test-support/backend-client.js';
import { startCheckout } from './checkout/start-checkout.js';
import { formatAmount } from './return/format-amount.js';
import type { PaykitPayButton } from './pay-button/pay-button.js';
import './pay-button/define.js';

let checkoutOrigin: string;
before(async () => {
  ({ checkoutOrigin } = await backendState());
});

async function payButton(amount: string, currency: string): Promise<PaykitPayButton> {
  const el = await fixture<PaykitPayButton>(
    html`<paykit-pay-button
      endpoint="/paykit"
      reference="sku-mug"
      amount=${amount}
      currency=${currency}
      checkout-origins=${checkoutOrigin}
    ></paykit-pay-button>`,
  );
  el.addEventListener('paykit-checkout', (event) => event.preventDefault());
  return el;
}

describe('money as the currency has it', () => {
  it('the pay button refuses 1250.50 JPY before sending anything; the development build says why', async () => {
    const el = await payButton('1250.50', 'JPY');
    const attempts = (await backendState()).attempts;
    const failure = next<PaykitErrorEvent>(el, 'paykit-error');
    const lines = await consoleDuring(async () => {
      el.shadowRoot!.querySelector('button')!.click();
      expect((await failure).detail.code).to.equal('validation_failed');
    });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part=error]')!.textContent).to.equal('This button is not set up correctly.');
    expect((await backendState()).attempts).to.equal(attempts);
    expect(lines.join('\n')).to.match(/amount="1250.50" in JPY, which has no decimals.*amount="1250"/s);
  });

  it('the pay button sends 1250.00 JPY (no sen in it): the backend, not the page, answers', async () => {
    const el = await payButton('1250.00', 'JPY');
    const failure = next<PaykitErrorEvent>(el, 'paykit-error');
    el.shadowRoot!.querySelector('button')!.click();
    // The test backend sells the mug in SGD: the price shown is refused there (another currency than the hook's is
    // the shop's configuration, checkout_misconfigured), so it was sent.
    expect((await failure).detail.code).to.equal('checkout_misconfigured');
  });

  it('startCheckout refuses it with validation_failed naming the currency, for JPY and KRW; SGD takes cents', async () => {
    for (const [amount, currency, why] of [
      ['1250.50', 'JPY', 'JPY has 0 decimals'],
      ['0.5', 'KRW', 'KRW has 0 decimals'],
      ['12.505', 'SGD', 'SGD has 2 decimals'],
    ] as const) {
      const error = await startCheckout({
        endpoint: '/paykit',
        choice: { reference: 'sku-mug', amount, currency },
        checkoutOrigins: [checkoutOrigin],
      }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(PaykitError);
      expect((error as PaykitError).code).to.equal('validation_failed');
      expect((error as PaykitError).errors).to.deep.equal([{ path: 'amount', message: why }]);
    }
    const started = await startCheckout({
      endpoint: '/paykit',
      choice: { reference: 'sku-mug', amount: '12.50', currency: 'SGD' },
      checkoutOrigins: [checkoutOrigin],
    });
    expect(started.amount).to.equal('12.50');
  });

  it('formats without rounding: the currency’s digits, and any the amount has beyond them', () => {
    const plain = (text: string) => text.replace(/\s/g, ' ');
    expect(formatAmount({ amount: '1250.00', currency: 'JPY' }, 'en')).to.equal('¥1,250');
    expect(formatAmount({ amount: '1250.50', currency: 'JPY' }, 'en')).to.equal('¥1,250.5');
    expect(plain(formatAmount({ amount: '30.00', currency: 'SGD' }, 'en'))).to.equal('SGD 30.00');
    expect(plain(formatAmount({ amount: '12.345', currency: 'KWD' }, 'en'))).to.equal('KWD 12.345');
  });
});
