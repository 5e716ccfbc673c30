/**
 * The React wrappers in Chromium with React 19 (bundled from its CommonJS files into ES modules by
 * test-support/react-as-esm.ts, as an app's bundler would), against the real backend: props reach the element
 * as properties, and events reach the typed `onPaykit…` props (the newest one after a re-render).
 */
import { expect } from '@open-wc/testing';
import React from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import type {
  PaykitCancelEvent,
  PaykitCheckoutEvent,
  PaykitConnectEvent,
  PaykitErrorEvent,
  PaykitPaymentCompletedEvent,
} from '../events.js';
import { backendState, settle, waitFor } from '../../test-support/backend-client.js';
import { startCheckout } from '../checkout/start-checkout.js';
import { ConnectButton, PayButton, PaykitReturn } from './index.js';

const h = React.createElement;
let checkoutOrigin: string;
let host: HTMLElement;
let root: Root;

before(async () => {
  ({ checkoutOrigin } = await backendState());
});
beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  root.unmount();
  host.remove();
  history.replaceState(null, '', location.pathname);
});

function render(element: React.ReactElement): void {
  flushSync(() => root.render(element));
}
const shadowButton = (tag: string) => host.querySelector(tag)!.shadowRoot!.querySelector('button')!;

describe('@paykit/elements/react', () => {
  it('<PayButton> sets its props as element properties and reports the checkout through onPaykitCheckout', async () => {
    const checkouts: PaykitCheckoutEvent[] = [];
    render(
      h(
        PayButton,
        {
          endpoint: '/paykit',
          reference: 'sku-mug',
          amount: '12.50',
          currency: 'SGD',
          checkoutOrigins: checkoutOrigin,
          onPaykitCheckout: (event) => {
            event.preventDefault();
            checkouts.push(event);
          },
        },
        'Buy the mug',
      ),
    );
    const el = host.querySelector('paykit-pay-button')!;
    expect(el.checkoutOrigins).to.equal(checkoutOrigin);
    expect(el.amount).to.equal('12.50');
    await el.updateComplete;
    shadowButton('paykit-pay-button').click();
    await waitFor(() => checkouts.length === 1, 'no paykit-checkout reached the prop');
    expect(new URL(checkouts[0]!.detail.url).origin).to.equal(checkoutOrigin);
  });

  it('<PayButton> calls the newest onPaykitError after a re-render, never the one it replaced', async () => {
    const first: PaykitErrorEvent[] = [];
    const second: PaykitErrorEvent[] = [];
    // A checkout origin the backend's URL does not match: the element refuses to navigate with `unsafe_url`.
    const props = { endpoint: '/paykit', reference: 'sku-mug', checkoutOrigins: 'https://elsewhere.example' };
    render(h(PayButton, { ...props, onPaykitError: (event) => void first.push(event) }));
    render(h(PayButton, { ...props, onPaykitError: (event) => void second.push(event) }));
    await host.querySelector('paykit-pay-button')!.updateComplete;
    shadowButton('paykit-pay-button').click();
    await waitFor(() => second.length === 1, 'no paykit-error reached the newest prop');
    expect(first).to.have.length(0);
    expect(second[0]!.detail.code).to.equal('unsafe_url');
  });

  it('<PayButton dropIn> opens the drop-in overlay, and closing it reaches onPaykitCancel with the pending request', async () => {
    const cancels: PaykitCancelEvent[] = [];
    render(
      h(PayButton, {
        endpoint: '/paykit',
        reference: 'sku-mug',
        email: 'react-drop-in@example.com',
        checkoutOrigins: checkoutOrigin,
        dropIn: true,
        onPaykitCancel: (event) => void cancels.push(event),
      }),
    );
    const el = host.querySelector('paykit-pay-button')!;
    expect(el.dropIn).to.equal(true);
    await el.updateComplete;
    shadowButton('paykit-pay-button').click();
    const overlay = () => document.querySelector('[data-hitpay-drop-in]')?.shadowRoot;
    await waitFor(() => overlay()?.querySelector('iframe'), 'the drop-in did not open', { timeout: 8_000 });
    const id = new URL(overlay()!.querySelector('iframe')!.src).pathname.split('/').pop();
    overlay()!.querySelector('button')!.click();
    await waitFor(() => cancels.length === 1, 'no paykit-cancel reached the prop');
    expect(cancels[0]!.detail.id).to.equal(id);
    sessionStorage.clear();
  });

  it('<ConnectButton> reports the authorize URL, with state and an S256 challenge, through onPaykitConnect', async () => {
    const connects: PaykitConnectEvent[] = [];
    render(
      h(ConnectButton, {
        clientId: 'app_123',
        redirectUri: `${location.origin}/return`,
        scope: 'payments',
        dashboardUrl: checkoutOrigin,
        onPaykitConnect: (event) => {
          event.preventDefault();
          connects.push(event);
        },
      }),
    );
    await host.querySelector('paykit-connect-button')!.updateComplete;
    shadowButton('paykit-connect-button').click();
    await waitFor(() => connects.length === 1, 'no paykit-connect reached the prop');
    const url = new URL(connects[0]!.detail.url);
    expect(url.searchParams.get('client_id')).to.equal('app_123');
    expect(url.searchParams.get('code_challenge_method')).to.equal('S256');
    expect(url.searchParams.get('state')).to.have.length.greaterThan(20);
  });

  it('<ConnectButton storage="local"> keeps the attempt in localStorage (issue 24), where a callback in another tab finds it', async () => {
    const connects: PaykitConnectEvent[] = [];
    render(
      h(ConnectButton, {
        clientId: 'app_123',
        redirectUri: `${location.origin}/return`,
        scope: 'payments',
        dashboardUrl: checkoutOrigin,
        storage: 'local',
        onPaykitConnect: (event) => {
          event.preventDefault();
          connects.push(event);
        },
      }),
    );
    await host.querySelector('paykit-connect-button')!.updateComplete;
    shadowButton('paykit-connect-button').click();
    await waitFor(() => connects.length === 1, 'no paykit-connect reached the prop');
    const state = new URL(connects[0]!.detail.url).searchParams.get('state')!;
    expect(localStorage.getItem(`paykit:connect:${state}`)).to.contain('codeVerifier');
    expect(sessionStorage.getItem(`paykit:connect:${state}`)).to.equal(null);
    localStorage.clear();
  });

  it('<PaykitReturn> rendered on the server waits for hydration to set its endpoint, then confirms', async () => {
    const { id } = await startCheckout({
      endpoint: '/paykit',
      choice: { reference: 'sku-mug' },
      checkoutOrigins: [checkoutOrigin],
    });
    await settle(id, 'succeeded');
    history.replaceState(null, '', `${location.pathname}?reference=${id}`);
    const completed: PaykitPaymentCompletedEvent[] = [];
    const errors: Event[] = [];
    const app = () =>
      h(PaykitReturn, { endpoint: '/paykit', onPaykitPaymentCompleted: (event) => void completed.push(event) });
    // The server's HTML has the bare tag: the element upgrades at once, with no endpoint yet.
    const ssr = document.createElement('div');
    ssr.innerHTML = renderToString(app());
    ssr.addEventListener('paykit-error', (event) => errors.push(event));
    document.body.append(ssr);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors).to.have.length(0);
    const hydrated = hydrateRoot(ssr, app());
    await waitFor(() => completed.length === 1, 'no paykit-payment-completed after hydration', { timeout: 5_000 });
    expect(completed[0]!.detail).to.include({ id, status: 'completed' });
    expect(errors).to.have.length(0);
    hydrated.unmount();
    ssr.remove();
  });

  it('<PaykitReturn> reports the confirmed payment through onPaykitPaymentCompleted', async () => {
    const { id } = await startCheckout({
      endpoint: '/paykit',
      choice: { reference: 'sku-tee' },
      checkoutOrigins: [checkoutOrigin],
    });
    await settle(id, 'succeeded');
    history.replaceState(null, '', `${location.pathname}?reference=${id}`);
    const completed: PaykitPaymentCompletedEvent[] = [];
    render(h(PaykitReturn, { endpoint: '/paykit', onPaykitPaymentCompleted: (event) => void completed.push(event) }));
    await waitFor(() => completed.length === 1, 'no paykit-payment-completed reached the prop', { timeout: 5_000 });
    expect(completed[0]!.detail).to.deep.equal({
      id,
      status: 'completed',
      amount: '30.00',
      currency: 'SGD',
      purpose: 'Element test',
    });
  });
});
