import { expect, fixture, html } from '@open-wc/testing';
import '../connect-button/define.js';
import '../pay-button/define.js';
import type { PaykitPayButton } from '../pay-button/pay-button.js';
import { registerMessages, text, type FramedMessages, type Messages } from '../messages.js';
import { viewText } from '../merchant-view/view-messages.js';
import './ar.js';
import './fr.js';

const label = (el: Element) => el.shadowRoot!.querySelector('slot')!.textContent;

describe('locales', () => {
  afterEach(() => document.documentElement.removeAttribute('lang'));

  it('follow the nearest lang attribute, then the page, then English', async () => {
    const fr = await fixture(html`<div lang="fr"><paykit-pay-button></paykit-pay-button></div>`);
    expect(label(fr.querySelector('paykit-pay-button')!)).to.equal('Payer');
    const regional = await fixture(html`<div lang="fr-CA"><paykit-connect-button></paykit-connect-button></div>`);
    expect(label(regional.querySelector('paykit-connect-button')!)).to.equal('Se connecter avec Payments');
    document.documentElement.lang = 'ar';
    const ar = await fixture<PaykitPayButton>(html`<paykit-pay-button></paykit-pay-button>`);
    expect(label(ar)).to.equal('ادفع');
    const unknown = await fixture(html`<div lang="xx"><paykit-pay-button></paykit-pay-button></div>`);
    expect(label(unknown.querySelector('paykit-pay-button')!)).to.equal('Pay');
  });

  it('a locale registered after the elements rendered relabels them (a locale script loaded after paykit)', async () => {
    const wrapper = await fixture(
      html`<div lang="de"><paykit-pay-button></paykit-pay-button><paykit-connect-button></paykit-connect-button></div>`,
    );
    const [pay, connect] = [...wrapper.children] as PaykitPayButton[];
    expect(label(pay!)).to.equal('Pay');
    registerMessages('de', { ...text(), pay: 'Bezahlen', connect: 'Mit Payments verbinden' } as Messages);
    await pay!.updateComplete;
    expect(label(pay!)).to.equal('Bezahlen');
    expect(label(connect!)).to.equal('Mit Payments verbinden');
  });

  it('a table without a newer key shows that text in English, never an empty label', async () => {
    const { connect: _missing, ...older } = text();
    registerMessages('nl', { ...older, pay: 'Betalen' } as Messages);
    const wrapper = await fixture(
      html`<div lang="nl"><paykit-pay-button></paykit-pay-button><paykit-connect-button></paykit-connect-button></div>`,
    );
    const [pay, connect] = [...wrapper.children] as PaykitPayButton[];
    expect(label(pay!)).to.equal('Betalen');
    expect(label(connect!)).to.equal('Connect with Payments');
  });

  it("every locale translates every text, the framed pages' words included", () => {
    // Their English is in the framed chunk (framed/framed.ts), not in the table every page downloads.
    const framed: (keyof FramedMessages)[] = ['checkoutInTab', 'connectInTab', 'pressAgain', 'frameBlocked'];
    // The merchant views' English is in their own modules (merchant-view/view-messages.ts).
    const views = Object.keys(viewText(document.body)).filter((key) => !(key in text()));
    const english = [...Object.keys(text()), ...framed, ...views];
    for (const lang of ['fr', 'ar']) {
      document.documentElement.lang = lang;
      const table = text() as Messages & Partial<FramedMessages>;
      expect(Object.keys(table)).to.deep.equal(english);
      for (const key of english)
        expect(table[key as keyof typeof table])
          .to.be.a('string')
          .and.not.equal('');
    }
  });

  it('lays out right to left: the spinner and label follow the reading direction', async () => {
    const wrapper = await fixture(
      html`<div dir="rtl" lang="ar">
        <paykit-pay-button endpoint="/hostile/slow" checkout-origins="https://x.example"></paykit-pay-button>
      </div>`,
    );
    const el = wrapper.querySelector('paykit-pay-button')!;
    el.shadowRoot!.querySelector('button')!.click();
    await el.updateComplete;
    const spinner = el.shadowRoot!.querySelector('[part=spinner]')!.getBoundingClientRect();
    const labelBox = el.shadowRoot!.querySelector('[part=label]')!.getBoundingClientRect();
    expect(spinner.left).to.be.greaterThan(labelBox.left);
    await expect(wrapper).to.be.accessible();
  });
});
