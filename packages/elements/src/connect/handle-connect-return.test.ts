import { expect, fixture, html } from '@open-wc/testing';
import type { PaykitConnectDeniedEvent, PaykitConnectedEvent, PaykitErrorEvent } from '../events.js';
import '../return/define.js';
import type { PaykitReturn } from '../return/return-status.js';
import { approveOnDashboard, backendState, next } from '../../test-support/backend-client.js';
import { saveAttempt } from './connect-attempts.js';
import { handleConnectReturn } from './handle-connect-return.js';
import { startConnect } from './start-connect.js';

let dashboard: string;
const redirectUri = () => `${location.origin}/return`;
before(async () => {
  dashboard = (await backendState()).checkoutOrigin;
});
afterEach(() => history.replaceState(null, '', location.pathname));

/** The whole browser side of a connection up to the callback: the button's work, then the merchant's approval. */
async function callbackUrl(): Promise<{ query: string; state: string }> {
  const { url, state } = await startConnect({
    clientId: 'unused',
    redirectUri: redirectUri(),
    scope: 'payments',
    dashboardUrl: dashboard,
  });
  const challenge = new URL(url).searchParams.get('code_challenge')!;
  const back = new URL(await approveOnDashboard({ redirect_uri: redirectUri(), state, code_challenge: challenge }));
  return { query: back.search.slice(1), state };
}

async function mountReturn(query: string): Promise<PaykitReturn> {
  history.replaceState(null, '', `${location.pathname}?${query}`);
  return fixture<PaykitReturn>(html`<paykit-return endpoint="/platform"></paykit-return>`);
}
const box = (el: PaykitReturn) => el.shadowRoot!.querySelector<HTMLElement>('[part=base]')!;

describe('<paykit-return> on an OAuth callback', () => {
  it('connects the merchant, cleans the URL, and says "already handled" on reload without a second call', async () => {
    const { query, state } = await callbackUrl();
    const before = (await backendState()).callbacks;
    const connected = next<PaykitConnectedEvent>(document, 'paykit-connected');
    const el = await mountReturn(query);
    expect((await connected).detail.business).to.include({ name: 'Harbour Cafe', payments_enabled: true });
    await el.updateComplete;
    expect(box(el).dataset.state).to.equal('connected');
    expect(box(el).textContent).to.contain('Connected to Harbour Cafe');
    expect(location.search).to.equal('');
    expect(state).to.have.length(43);

    const reload = next<PaykitErrorEvent>(document, 'paykit-error');
    await fixture(html`<paykit-return endpoint="/platform"></paykit-return>`);
    expect((await reload).detail.code).to.equal('state_used');
    expect((await backendState()).callbacks).to.equal(before + 1);
  });

  it('completes two connections started at once: each attempt has its own state and verifier', async () => {
    // Both attempts are started (and approved) before either returns, as with two windows or two clicks.
    const first = await callbackUrl();
    const second = await callbackUrl();
    expect(first.state).to.not.equal(second.state);
    const url = (query: string) => `${location.origin}${location.pathname}?${query}`;
    const a = await handleConnectReturn({ endpoint: '/platform', url: url(second.query) });
    const b = await handleConnectReturn({ endpoint: '/platform', url: url(first.query) });
    expect(a.name).to.equal('Harbour Cafe');
    expect(b.name).to.equal('Harbour Cafe');
  });

  it('makes one exchange when mounted twice at once (React StrictMode)', async () => {
    const { query } = await callbackUrl();
    const before = (await backendState()).callbacks;
    const url = `${location.origin}${location.pathname}?${query}`;
    const [a, b] = await Promise.all([
      handleConnectReturn({ endpoint: '/platform', url }),
      handleConnectReturn({ endpoint: '/platform', url }),
    ]);
    expect(a).to.equal(b);
    expect((await backendState()).callbacks).to.equal(before + 1);
  });

  it('stops before any call for a forged, a missing or an expired state, each with its own code', async () => {
    const before = (await backendState()).callbacks;
    const forged = next<PaykitErrorEvent>(document, 'paykit-error');
    await mountReturn('code=stolen&state=forged-state');
    expect((await forged).detail.code).to.equal('state_unknown');

    const missing = next<PaykitErrorEvent>(document, 'paykit-error');
    await mountReturn('code=stolen');
    expect((await missing).detail.code).to.equal('state_missing');

    saveAttempt(sessionStorage, 'old-state', {
      codeVerifier: 'v'.repeat(43),
      redirectUri: redirectUri(),
      createdAt: Date.now() - 11 * 60_000,
    });
    const expired = next<PaykitErrorEvent>(document, 'paykit-error');
    await mountReturn('code=late&state=old-state');
    expect((await expired).detail.code).to.equal('state_expired');

    const repeated = next<PaykitErrorEvent>(document, 'paykit-error');
    await mountReturn('code=a&state=x&state=y');
    expect((await repeated).detail.code).to.equal('duplicate_parameter');
    expect((await backendState()).callbacks).to.equal(before);
  });

  it('says "cancelled" on access_denied, with no call; the description reaches the event, never the box', async () => {
    const { state } = await startConnect({
      clientId: 'c',
      redirectUri: redirectUri(),
      scope: 'payments',
      dashboardUrl: dashboard,
    });
    const before = (await backendState()).callbacks;
    const cancelled = next<PaykitConnectDeniedEvent>(document, 'paykit-connect-denied');
    const el = await mountReturn(
      `error=access_denied&error_description=${encodeURIComponent('<img src=x onerror=alert(1)>')}&state=${state}`,
    );
    expect((await cancelled).detail.description).to.equal('<img src=x onerror=alert(1)>');
    await el.updateComplete;
    expect(box(el).dataset.state).to.equal('canceled');
    expect(box(el).textContent).to.contain('Connection cancelled');
    expect(el.shadowRoot!.querySelector('img')).to.equal(null);
    expect((await backendState()).callbacks).to.equal(before);

    const { state: other } = await startConnect({
      clientId: 'c',
      redirectUri: redirectUri(),
      scope: 'payments',
      dashboardUrl: dashboard,
    });
    const failed = next<PaykitErrorEvent>(document, 'paykit-error');
    const shown = await mountReturn(
      `error=server_error&error_description=${encodeURIComponent('<b>boom</b>')}&state=${other}`,
    );
    expect((await failed).detail.code).to.equal('upstream_error');
    await shown.updateComplete;
    // Anyone can write a callback URL: its words are not shown in the shop's voice.
    expect(box(shown).textContent).to.contain('The connection did not go through');
    expect(box(shown).textContent).to.not.contain('boom');
    expect(shown.shadowRoot!.querySelector('b')).to.equal(null);
  });

  it("forwards the callback's iss (RFC 9207): the sandbox's passes, another is refused by the backend in this page's words", async () => {
    const { query } = await callbackUrl();
    expect(new URLSearchParams(query).get('iss')).to.equal(dashboard);
    const before = (await backendState()).callbacks;
    const forged = new URLSearchParams(query);
    forged.set('iss', 'https://attacker.example');
    const refused = next<PaykitErrorEvent>(document, 'paykit-error');
    const el = await mountReturn(forged.toString());
    const { detail } = await refused;
    expect(detail.code).to.equal('issuer_mismatch');
    // One sentence for every refused callback (the remedy is the same); the code says which.
    expect(detail.message).to.equal('The connection did not go through. Please connect again.');
    await el.updateComplete;
    expect(box(el).textContent).to.contain('did not go through');
    // The code was posted with the forged iss: the backend compared and refused it.
    expect((await backendState()).callbacks).to.equal(before + 1);
    expect(location.search).to.equal('');

    const repeated = next<PaykitErrorEvent>(document, 'paykit-error');
    await mountReturn(`${query}&iss=${encodeURIComponent(dashboard)}`);
    expect((await repeated).detail.code).to.equal('duplicate_parameter');
    expect((await backendState()).callbacks).to.equal(before + 1);
  });

  it("says it in this page's words when the backend refuses a code it has seen (code_reused stays the code)", async () => {
    const { query, state } = await callbackUrl();
    // What this tab kept for the attempt, to replay the code under a state of its own.
    const kept = JSON.parse(sessionStorage.getItem(`paykit:connect:${state}`)!) as { codeVerifier: string };
    await handleConnectReturn({ endpoint: '/platform', url: `${location.origin}${location.pathname}?${query}` });
    saveAttempt(sessionStorage, 'replay-state', {
      codeVerifier: kept.codeVerifier,
      redirectUri: redirectUri(),
      createdAt: Date.now(),
    });
    const replay = new URLSearchParams(query);
    replay.set('state', 'replay-state');
    const refused = next<PaykitErrorEvent>(document, 'paykit-error');
    const el = await mountReturn(replay.toString());
    const { detail } = await refused;
    expect(detail.code).to.equal('code_reused');
    expect(detail.message).to.equal('The connection did not go through. Please connect again.');
    await el.updateComplete;
    expect(box(el).dataset.state).to.equal('error');
  });
});
