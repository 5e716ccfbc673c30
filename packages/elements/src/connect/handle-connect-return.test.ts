import { expect, fixture, html } from '@open-wc/testing';
import type { PaykitConnectDeniedEvent, PaykitConnectedEvent, PaykitErrorEvent } from '../events.js';
import '../return/define.js';
import type { PaykitReturn } from '../return/return-status.js';
import { approveOnDashboard, backendState, itExcept, next, waitFor } from '../../test-support/backend-client.js';
import { saveAttempt } from './connect-attempts.js';
import { LATEST } from './latest-request.js';
import { ConnectAgainError, ConnectDeniedError } from './connect-errors.js';
import { handleConnectReturn } from './handle-connect-return.js';
import { codeChallengeOf } from './pkce.js';
import { startConnect } from './start-connect.js';
import '../connect-button/define.js';
import type { PaykitConnectButton } from '../connect-button/connect-button.js';

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

  it('throws typed errors a page can test: a denial with its description, a lost attempt with connectAgain', async () => {
    const { state } = await startConnect({
      clientId: 'c',
      redirectUri: redirectUri(),
      scope: 'payments',
      dashboardUrl: dashboard,
    });
    const denied: unknown = await handleConnectReturn({
      endpoint: '/paykit',
      url: `${redirectUri()}?error=access_denied&error_description=No%20thanks&state=${state}`,
    }).catch((error: unknown) => error);
    expect(denied).to.be.instanceOf(ConnectDeniedError);
    expect((denied as ConnectDeniedError).code).to.equal('access_denied');
    expect((denied as ConnectDeniedError).description).to.equal('No thanks');
    expect((denied as ConnectDeniedError).cause).to.equal(undefined);

    // This tab's latest request is kept by startConnect: a state it never issued can be started again.
    const lost: unknown = await handleConnectReturn({
      endpoint: '/paykit',
      url: `${redirectUri()}?code=abc&state=never-issued`,
    }).catch((error: unknown) => error);
    expect(lost).to.be.instanceOf(ConnectAgainError);
    expect((lost as ConnectAgainError).code).to.equal('state_unknown');
    expect((lost as ConnectAgainError).connectAgain).to.be.a('function');
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

/** What a navigation of this page would have loaded: the Navigation API's `navigate` event, cancelled. */
function nextNavigation(): Promise<URL> {
  const navigation = (window as unknown as { navigation: EventTarget }).navigation;
  return new Promise((resolve) => {
    navigation.addEventListener(
      'navigate',
      (event) => {
        const navigate = event as Event & { destination: { url: string } };
        navigate.preventDefault();
        resolve(new URL(navigate.destination.url));
      },
      { once: true },
    );
  });
}

/** A connect button's attempt, as its click makes it; resolves with the authorization URL it would go to. */
async function clickConnect(attributes: Record<string, string> = {}): Promise<URL> {
  const el = document.createElement('paykit-connect-button') as PaykitConnectButton;
  for (const [name, value] of Object.entries({
    'client-id': 'app_123',
    'redirect-uri': redirectUri(),
    scope: 'payments business:read',
    'dashboard-url': dashboard,
    ...attributes,
  }))
    el.setAttribute(name, value);
  const connect = next<Event & { detail: { url: string } }>(el, 'paykit-connect');
  el.addEventListener('paykit-connect', (event) => event.preventDefault());
  document.body.append(el);
  await el.updateComplete;
  el.shadowRoot!.querySelector('button')!.click();
  const url = new URL((await connect).detail.url);
  el.remove();
  return url;
}

/** The callback of an approved attempt whose authorization URL is `url`. */
async function approved(url: URL): Promise<string> {
  const query = url.searchParams;
  const back = await approveOnDashboard({
    redirect_uri: query.get('redirect_uri')!,
    state: query.get('state')!,
    code_challenge: query.get('code_challenge')!,
  });
  return new URL(back).search.slice(1);
}

const kept = (storage: Storage, state: string) =>
  JSON.parse(storage.getItem(`paykit:connect:${state}`) ?? 'null') as { used?: true; codeVerifier?: string } | null;

describe('storage="local" (issue 24: a callback in another tab)', () => {
  afterEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it("keeps the attempt in the origin's localStorage, where a tab that did not start it completes it, once for every tab", async () => {
    const url = await clickConnect({ storage: 'local' });
    const state = url.searchParams.get('state')!;
    expect(kept(localStorage, state)?.codeVerifier).to.have.length(43);
    expect(kept(sessionStorage, state)).to.equal(null);
    const query = await approved(url);
    // The callback's tab: its sessionStorage has nothing of this attempt (here it never had).
    sessionStorage.clear();
    const before = (await backendState()).callbacks;
    const connected = next<PaykitConnectedEvent>(document, 'paykit-connected');
    const el = await mountReturn(query);
    expect((await connected).detail.business.name).to.equal('Harbour Cafe');
    await el.updateComplete;
    expect(box(el).dataset.state).to.equal('connected');
    // Consumed where every tab reads it: the same callback in any tab of this origin is "already handled".
    expect(kept(localStorage, state)).to.deep.include({ used: true });
    const code = await handleConnectReturn({ endpoint: '/platform', url: `${location.origin}/return?${query}` }).then(
      () => 'connected',
      (error: { code: string }) => error.code,
    );
    expect(code).to.equal('state_used');
    expect((await backendState()).callbacks).to.equal(before + 1);
  });

  it('without it, the attempt stays in the tab that started it: another tab gets state_unknown', async () => {
    const url = await clickConnect();
    const state = url.searchParams.get('state')!;
    expect(kept(sessionStorage, state)?.codeVerifier).to.have.length(43);
    expect(kept(localStorage, state)).to.equal(null);
    const query = await approved(url);
    sessionStorage.clear();
    const refused = next<PaykitErrorEvent>(document, 'paykit-error');
    await mountReturn(query);
    expect((await refused).detail.code).to.equal('state_unknown');
  });

  it('startConnect takes storage: "local"; expired attempts of localStorage expire (state_expired) and are pruned', async () => {
    const { state } = await startConnect({
      clientId: 'c',
      redirectUri: redirectUri(),
      scope: 'payments',
      dashboardUrl: dashboard,
      storage: 'local',
    });
    expect(kept(localStorage, state)?.codeVerifier).to.have.length(43);
    const old = { codeVerifier: 'v'.repeat(43), redirectUri: redirectUri(), createdAt: Date.now() - 11 * 60_000 };
    saveAttempt(localStorage, 'old-state', old);
    saveAttempt(localStorage, 'older-state', { ...old, createdAt: old.createdAt - 60_000 });
    const expired = next<PaykitErrorEvent>(document, 'paykit-error');
    await mountReturn('code=late&state=old-state');
    expect((await expired).detail.code).to.equal('state_expired');
    // Handling a callback pruned the other expired attempt; the live one and the new tombstone stay.
    expect(localStorage.getItem('paykit:connect:older-state')).to.equal(null);
    expect(kept(localStorage, 'old-state')).to.deep.include({ used: true });
    expect(kept(localStorage, state)?.codeVerifier).to.have.length(43);
  });
});

describe('"Connect again" (issue 24: connect recovers)', () => {
  afterEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  const connectAgain = (el: PaykitReturn) => el.shadowRoot!.querySelector<HTMLButtonElement>('[part=connect]');

  for (const storage of ['session', 'local'] as const) {
    itExcept(
      ['webkit'],
      "WebKit does not cancel the cross-origin navigation 'Connect again' starts (the Navigation API's preventDefault), so the test page itself would leave",
      `on state_unknown starts the origin's latest request again, fresh state and verifier, in ${storage} storage`,
      async () => {
        const first = await clickConnect({ storage, prompt: 'login', 'login-hint': 'owner@harbour.test' });
        const refused = next<PaykitErrorEvent>(document, 'paykit-error');
        const el = await mountReturn('code=from-elsewhere&state=issued-in-another-tab');
        expect((await refused).detail.code).to.equal('state_unknown');
        await el.updateComplete;
        expect(box(el).textContent).to.contain('The connection did not go through. Please connect again.');
        expect(connectAgain(el)!.textContent).to.equal('Connect again');
        await expect(el).to.be.accessible();

        const navigation = nextNavigation();
        connectAgain(el)!.click();
        const url = await navigation;
        expect(url.origin + url.pathname).to.equal(first.origin + first.pathname);
        const { state, code_challenge: challenge, ...same } = Object.fromEntries(url.searchParams);
        const { state: firstState, code_challenge: firstChallenge, ...before } = Object.fromEntries(first.searchParams);
        expect(same).to.deep.equal(before);
        expect(same).to.include({ client_id: 'app_123', prompt: 'login', login_hint: 'owner@harbour.test' });
        expect(state)
          .to.match(/^[A-Za-z0-9_-]{43}$/)
          .and.not.equal(firstState);
        expect(challenge).to.not.equal(firstChallenge);
        // The new attempt is kept where the first was, and its verifier is the one of the new challenge.
        const attempt = kept(storage === 'local' ? localStorage : sessionStorage, state!);
        expect(await codeChallengeOf(attempt!.codeVerifier!)).to.equal(challenge);
        expect(kept(storage === 'local' ? sessionStorage : localStorage, state!)).to.equal(null);
      },
    );
  }

  it('is offered for an expired attempt too, and not when this browser knows no request or for other refusals', async () => {
    await clickConnect();
    saveAttempt(sessionStorage, 'old-state', {
      codeVerifier: 'v'.repeat(43),
      redirectUri: redirectUri(),
      createdAt: Date.now() - 11 * 60_000,
    });
    const expired = await mountReturn('code=late&state=old-state');
    await waitFor(() => box(expired).dataset.state === 'error');
    expect(connectAgain(expired)).to.not.equal(null);

    const { state } = await startConnect({
      clientId: 'c',
      redirectUri: redirectUri(),
      scope: 'p',
      dashboardUrl: dashboard,
    });
    const failed = await mountReturn(`error=server_error&state=${state}`);
    await waitFor(() => box(failed).dataset.state === 'error');
    expect(connectAgain(failed)).to.equal(null);

    // Only a URL paykit may send a merchant to is offered (from either storage), and nothing when none is known.
    for (const place of [sessionStorage, localStorage])
      place.setItem(LATEST, JSON.stringify(['javascript:alert(1)', place === localStorage]));
    const unsafe = await mountReturn('code=x&state=unknown-1');
    await waitFor(() => box(unsafe).dataset.state === 'error');
    expect(connectAgain(unsafe)).to.equal(null);
    for (const place of [sessionStorage, localStorage]) place.removeItem(LATEST);
    const unknown = await mountReturn('code=x&state=unknown-2');
    await waitFor(() => box(unknown).dataset.state === 'error');
    expect(box(unknown).textContent).to.contain('Please connect again.');
    expect(connectAgain(unknown)).to.equal(null);
  });

  for (const storage of ['session', 'local'] as const)
    it(`keeps the latest request in the storage \`storage\` names (${storage}), and nowhere else`, async () => {
      const url = await clickConnect(storage === 'local' ? { storage } : {});
      const [named, other] = storage === 'local' ? [localStorage, sessionStorage] : [sessionStorage, localStorage];
      // With the state and the challenge in localStorage, any page of the origin, in any tab, could ask the
      // authorization server for a code bound to this tab's verifier.
      expect(other.getItem(LATEST)).to.equal(null);
      expect(named.getItem(LATEST)).to.equal(JSON.stringify([url.href, storage === 'local']));
    });

  it('a connection that went through forgets the latest request', async () => {
    const url = await clickConnect();
    expect(sessionStorage.getItem(LATEST) ?? localStorage.getItem(LATEST)).to.not.equal(null);
    const connected = next<PaykitConnectedEvent>(document, 'paykit-connected');
    await mountReturn(await approved(url));
    await connected;
    expect([sessionStorage.getItem(LATEST), localStorage.getItem(LATEST)]).to.deep.equal([null, null]);
  });
});
