/**
 * The development build's console diagnostics (the tests resolve `#dev` with the `development` condition, see
 * web-test-runner.config.mjs), against the real backend: each names the element, the attribute, the value
 * received and the fix; a misconfigured button sends nothing at all (counted where requests arrive), and the
 * shopper reads only shopper words. That the production bundles carry none of these words is checked on the
 * bundles themselves (bench/bundle-sizes.ts, `pnpm bench:sizes`).
 */
import { expect, fixture, html } from '@open-wc/testing';
import type { PaykitErrorEvent } from '../events.js';
import '../connect-button/define.js';
import '../pay-button/define.js';
import type { PaykitPayButton } from '../pay-button/pay-button.js';
import '../return/define.js';
import { backendState, consoleDuring, next } from '../../test-support/backend-client.js';
import { startConnect } from '../connect/start-connect.js';
import { RETURN_ENDPOINT_GRACE_MS } from './diagnostics.development.js';

let checkoutOrigin: string;
before(async () => {
  ({ checkoutOrigin } = await backendState());
});

/** Clicks `el`'s button and resolves with its `paykit-error`, the console lines meanwhile, and the requests made. */
async function clickFailing(el: HTMLElement) {
  el.addEventListener('paykit-checkout', (event) => event.preventDefault());
  const before = await backendState();
  let detail: PaykitErrorEvent['detail'] | undefined;
  const lines = await consoleDuring(async () => {
    const failure = next<PaykitErrorEvent>(el, 'paykit-error');
    el.shadowRoot!.querySelector('button')!.click();
    detail = (await failure).detail;
  });
  const after = await backendState();
  const shown = el.shadowRoot!.querySelector('[part=error]')!.textContent!;
  return {
    detail: detail!,
    lines,
    shown,
    attempts: after.attempts - before.attempts,
    created: after.count - before.count,
  };
}

const payButton = (attributes: string) => {
  const wrapper = document.createElement('div');
  wrapper.innerHTML = `<paykit-pay-button reference="sku-mug" ${attributes}>Buy</paykit-pay-button>`;
  return fixture<PaykitPayButton>(wrapper.firstElementChild as PaykitPayButton);
};

describe('development diagnostics', () => {
  it('a pay button without endpoint names the attribute, sends nothing, and shows shopper words', async () => {
    const el = await payButton(`checkout-origins="${checkoutOrigin}"`);
    const { detail, lines, shown, attempts } = await clickFailing(el);
    expect(attempts).to.equal(0);
    expect(detail.code).to.equal('validation_failed');
    expect(lines.join('\n')).to.match(
      /\[paykit\] <paykit-pay-button> has no endpoint \(received nothing\).*endpoint="\/paykit"/,
    );
    expect(shown).to.equal('This button is not set up correctly.');
  });

  it('a pay button without or with an unparsable checkout-origins says the value received and the fix, and sends nothing', async () => {
    for (const [attribute, words] of [
      ['', /has no checkout-origins \(received nothing\).*checkout-origins="https:\/\/checkout\.example"/],
      ['checkout-origins="checkout.example"', /checkout-origins has "checkout\.example", which is not an https origin/],
    ] as const) {
      const el = await payButton(`endpoint="/paykit" ${attribute}`);
      const { detail, lines, shown, attempts } = await clickFailing(el);
      expect(attempts, attribute).to.equal(0);
      expect(detail.code).to.equal('unsafe_url');
      expect(lines.join('\n')).to.match(words);
      expect(shown).to.not.match(/checkout-origins/);
    }
  });

  it('a wrong checkout-origins prints the checkout origin actually received and the attribute to write', async () => {
    const el = await payButton('endpoint="/paykit" checkout-origins="https://checkout.example"');
    const { detail, lines } = await clickFailing(el);
    expect(detail.code).to.equal('unsafe_url');
    expect(lines.join('\n')).to.contain(
      `the backend sent a checkout URL on ${checkoutOrigin}, which is not in checkout-origins ("https://checkout.example")`,
    );
    expect(lines.join('\n')).to.contain(`checkout-origins="https://checkout.example ${checkoutOrigin}"`);
  });

  it("a handler refusing this page's origin (403) prints the allowedOrigins and publicOrigin lines; the shopper reads no server words", async () => {
    const el = await payButton(`endpoint="/strict" checkout-origins="${checkoutOrigin}"`);
    const { detail, lines, shown, created } = await clickFailing(el);
    expect(detail.code).to.equal('cross_site_request');
    expect(created).to.equal(0);
    const printed = lines.join('\n');
    expect(printed).to.contain(`allowedOrigins: ['${location.origin}']`);
    expect(printed).to.contain(`publicOrigin: '${location.origin}'`);
    expect(shown).to.equal('Something went wrong. Please try again.');
    expect(detail.message).to.not.match(/publicOrigin|allowedOrigins|not allowed/);
  });

  it('a handler that cannot be reached (down, or refused by CORS) says what to check', async () => {
    const el = await payButton(`endpoint="http://127.0.0.1:9/paykit" checkout-origins="${checkoutOrigin}"`);
    const { detail, lines, shown } = await clickFailing(el);
    expect(detail.code).to.equal('network_error');
    expect(lines.join('\n')).to.match(
      /could not reach http:\/\/127\.0\.0\.1:9\/paykit\. Check that your server is running.*allowedOrigins.*CORS/,
    );
    expect(shown).to.match(/could not be reached/);
  });

  it('a handler that answered but could not reach the Payments API, or whose key was refused, says which setting to check', async () => {
    for (const [endpoint, code, words] of [
      [
        '/no-api',
        'api_unreachable',
        /\/no-api answered, but the shop's server could not reach the Payments API.*Check apiBaseUrl/,
      ],
      ['/wrong-key', 'api_key_refused', /\/wrong-key answered, but the shop's server was refused.*Check apiKey/],
      [
        '/typo',
        'checkout_misconfigured',
        /\/typo answered, but the shop's server cannot charge the price its createPaymentRequest decided.*\(currency="SGD"\)/,
      ],
    ] as const) {
      const el = await payButton(
        `endpoint="${endpoint}" checkout-origins="${checkoutOrigin}" amount="1.00" currency="SGD"`,
      );
      const { detail, lines, shown } = await clickFailing(el);
      expect(detail.code, endpoint).to.equal(code);
      const printed = lines.join('\n');
      expect(printed).to.match(words);
      expect(printed, 'not the message of an unreachable handler').to.not.match(/Check that your server is running/);
      expect(shown).to.not.match(/apiKey|apiBaseUrl/);
    }
  });

  it('a connect button without client-id, redirect-uri and scope names each, and goes nowhere', async () => {
    const el = await fixture<HTMLElement>(
      html`<paykit-connect-button dashboard-url=${checkoutOrigin}></paykit-connect-button>`,
    );
    let navigated = false;
    el.addEventListener('paykit-connect', (event) => {
      navigated = true;
      event.preventDefault();
    });
    const { detail, lines } = await clickFailing(el);
    expect(navigated).to.equal(false);
    expect(detail.code).to.equal('validation_failed');
    const printed = lines.join('\n');
    for (const attribute of ['client-id', 'redirect-uri', 'scope'])
      expect(printed).to.contain(`<paykit-connect-button> has no ${attribute} (received "")`);
  });

  it('<paykit-return> without endpoint says so once the grace time has passed', async () => {
    history.replaceState(null, '', `${location.pathname}?reference=abc`);
    const lines = await consoleDuring(async () => {
      await fixture(html`<paykit-return></paykit-return>`);
      await new Promise((resolve) => setTimeout(resolve, RETURN_ENDPOINT_GRACE_MS + 200));
    });
    history.replaceState(null, '', location.pathname);
    expect(lines.join('\n')).to.match(/<paykit-return> has had no endpoint for 2 s.*endpoint="\/paykit"/);
  });

  it('a refused connection callback names its exact cause in the console; the page says one sentence', async () => {
    history.replaceState(null, '', `${location.pathname}?code=stolen&state=forged-state`);
    let detail: PaykitErrorEvent['detail'] | undefined;
    let shown = '';
    const lines = await consoleDuring(async () => {
      const failure = next<PaykitErrorEvent>(document, 'paykit-error');
      const el = await fixture(html`<paykit-return endpoint="/platform"></paykit-return>`);
      detail = (await failure).detail;
      await (el as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
      shown = el.shadowRoot!.querySelector('[part=message]')!.textContent!;
    });
    history.replaceState(null, '', location.pathname);
    expect(detail!.code).to.equal('state_unknown');
    expect(shown).to.equal('The connection did not go through. Please connect again.');
    expect(lines.join('\n')).to.match(
      /<paykit-return>: the connection was refused \(state_unknown\): this browser tab did not start/,
    );
  });
  it('a connect button whose redirect-uri is on another origin, or with an unknown storage, is warned of before it goes', async () => {
    const el = document.createElement('paykit-connect-button');
    for (const [name, value] of Object.entries({
      'client-id': 'app_123',
      'redirect-uri': 'https://platform.example/connected',
      scope: 'payments',
      'dashboard-url': checkoutOrigin,
      storage: 'localStorage',
    }))
      el.setAttribute(name, value);
    el.addEventListener('paykit-connect', (event) => event.preventDefault());
    document.body.append(el);
    await el.updateComplete;
    const lines = await consoleDuring(async () => {
      const connect = next(el, 'paykit-connect');
      el.shadowRoot!.querySelector('button')!.click();
      await connect;
    });
    el.remove();
    const printed = lines.join('\n');
    expect(printed).to.contain(
      `<paykit-connect-button>'s redirect-uri is on https://platform.example, another origin than this page (${location.origin})`,
    );
    expect(printed).to.match(/every callback there ends in state_unknown/);
    expect(printed).to.contain(`<paykit-connect-button>'s storage is "localStorage", which is neither "local"`);
  });

  describe('an unknown state names its likely cause from what this browser remembers', () => {
    afterEach(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    async function refusedCallback(): Promise<string> {
      history.replaceState(null, '', `${location.pathname}?code=c&state=not-issued-here`);
      const lines = await consoleDuring(async () => {
        const failure = next<PaykitErrorEvent>(document, 'paykit-error');
        await fixture(html`<paykit-return endpoint="/platform"></paykit-return>`);
        await failure;
      });
      history.replaceState(null, '', location.pathname);
      return lines.join('\n');
    }
    const connect = (storage?: 'local') =>
      startConnect({
        clientId: 'app_123',
        redirectUri: `${location.origin}/return`,
        scope: 'payments',
        dashboardUrl: checkoutOrigin,
        ...(storage ? { storage } : {}),
      });

    it('another tab, after a connection of this tab (sessionStorage): storage="local", and "Connect again"', async () => {
      await connect();
      const printed = await refusedCallback();
      expect(printed).to.match(/state_unknown.*the likely cause is another tab.*Set storage="local"/s);
      expect(printed).to.contain('The page offers "Connect again"');
    });

    it('another browser, or a button on another origin, when this browser started nothing here', async () => {
      const printed = await refusedCallback();
      expect(printed).to.match(/No connection was started from this origin in this tab.*another browser/s);
      expect(printed).to.match(/<paykit-connect-button> on a page of another origin/);
      expect(printed).to.contain('The page asks to connect again.');
    });

    it('another browser or cleared data, when the latest connection already used localStorage', async () => {
      await connect('local');
      const printed = await refusedCallback();
      expect(printed).to.match(
        /kept its attempt in localStorage \(storage="local"\).*likely cause is another browser/s,
      );
    });
  });
});
