/**
 * The sandbox dashboard as a browser uses it (fetch with a cookie jar, redirects followed by hand): sign-in,
 * the consent page's refusals and redirects, the Connected apps page, and the attacks on them.
 */
import { call } from '@paykit/test-support/sandbox-calls';
import { addMember, createBusiness, MEMBER_EMAIL, registerApp } from '@paykit/test-support/sandbox-control';
import { approveOnSandbox, exchangeCodeOnSandbox } from '@paykit/test-support/sandbox-oauth';
import { describe, expect, it } from 'vitest';
import { SEED_USER } from '../oauth/oauth-state.js';
import type { RunningSandbox } from '../start.js';
import { REDIRECT, useRegisteredApp, type RegisteredApp } from '../../test-support/registered-app.js';

let sandbox: RunningSandbox;
let app: RegisteredApp;
useRegisteredApp((fixture) => ({ sandbox, app } = fixture));

/** One page load: no redirect followed, the session cookie kept. */
async function browse(path: string, init: { cookie?: string; form?: Record<string, string>; headers?: object } = {}) {
  const response = await fetch(sandbox.url + path, {
    method: init.form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...init.headers,
    },
    body: init.form ? new URLSearchParams(init.form).toString() : undefined,
  });
  return {
    status: response.status,
    location: response.headers.get('location'),
    headers: response.headers,
    text: await response.text(),
    cookie: response.headers.get('set-cookie')?.split(';')[0] ?? init.cookie,
  };
}

const signInAs = async (email: string) => (await browse('/dashboard/sign-in', { form: { email } })).cookie!;

const authorizeUrl = (params: Record<string, string> = {}) =>
  `/oauth/authorize?${new URLSearchParams({
    client_id: app.client_id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'payments',
    state: 'st-9',
    ...params,
  })}`;

/** The consent form's fields as its Approve button posts them: for the seeded business unless `business` says. */
const approval = (csrf: string, business = sandbox.seed.businessId) => ({
  client_id: app.client_id,
  redirect_uri: REDIRECT,
  response_type: 'code',
  scope: 'payments',
  state: 'st-9',
  business_id: business,
  decision: 'approve',
  csrf,
});

const csrfOf = (text: string) => /name="csrf" value="([^"]+)"/.exec(text)![1]!;

describe('sign-in', () => {
  it('lists the users for one click, signs in with an HttpOnly SameSite=Lax cookie, and signs out', async () => {
    const form = await browse('/dashboard/sign-in');
    expect(form.text).toContain('owner@demo-store.test');
    expect(form.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const signedIn = await browse('/dashboard/sign-in', { form: { email: 'OWNER@demo-store.test' } });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe('/dashboard/connected-apps');
    const setCookie = (
      await fetch(`${sandbox.url}/dashboard/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=owner%40demo-store.test',
      })
    ).headers.get('set-cookie')!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const apps = await browse('/dashboard/connected-apps', { cookie: signedIn.cookie! });
    expect(apps.status).toBe(200);
    expect(apps.text).toContain(`Signed in as ${SEED_USER.email}`);
    const out = await browse('/dashboard/sign-out', { cookie: signedIn.cookie!, form: {} });
    expect(out.location).toMatch(/^\/dashboard\/sign-in/);
    // The old cookie is dead on the server, not only deleted in the browser.
    expect((await browse('/dashboard/connected-apps', { cookie: signedIn.cookie! })).status).toBe(303);
  });

  it('refuses an unknown email', async () => {
    const answer = await browse('/dashboard/sign-in', { form: { email: 'nobody@example.test' } });
    expect(answer.status).toBe(401);
    expect(answer.cookie).toBeUndefined();
  });

  it('never sends the browser off-site after sign-in, however next= is spelled', async () => {
    for (const next of [
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example/',
      '/\t/evil.example/',
      '/%09/evil.example',
      'javascript:alert(1)',
      ' /dashboard',
      // Dot segments collapse into a scheme-relative path once resolved: `/.//x` is `//x`.
      '/.//attacker.test/',
      '/./\\attacker.test/',
      '/..//attacker.test/',
      '/%2e//attacker.test/',
      '/dashboard/..//attacker.test/',
    ]) {
      const answer = await browse('/dashboard/sign-in', { form: { email: SEED_USER.email, next } });
      const target = new URL(answer.location!, sandbox.url);
      expect(target.origin, JSON.stringify(next)).toBe(sandbox.url);
      expect(answer.location, JSON.stringify(next)).not.toMatch(/[\t\n\r]/);
      expect(answer.location, JSON.stringify(next)).toMatch(/^\/(?![/\\])/);
    }
  });

  it('refuses a sign-in form posted from another site or another origin of this one (login CSRF)', async () => {
    const crossSite = await browse('/dashboard/sign-in', {
      form: { email: SEED_USER.email },
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.cookie).toBeUndefined();
    const sameSite = await browse('/dashboard/sign-in', {
      form: { email: SEED_USER.email },
      headers: { origin: 'http://127.0.0.1:1', 'sec-fetch-site': 'same-site' },
    });
    expect(sameSite.status).toBe(403);
    // The dashboard's own forms carry Origin: null (no-referrer policy) and Sec-Fetch-Site: same-origin.
    const own = await browse('/dashboard/sign-in', {
      form: { email: SEED_USER.email },
      headers: { origin: 'null', 'sec-fetch-site': 'same-origin' },
    });
    expect(own.status).toBe(303);
  });
});

describe('the consent page', () => {
  it('sends an unsigned-in user to sign in and back, then shows the app, the business it reaches, scopes in words', async () => {
    const first = await browse(authorizeUrl());
    expect(first.status).toBe(303);
    const signIn = await browse(first.location!);
    expect(signIn.status).toBe(200);
    const next = /name="next" value="([^"]+)"/.exec(signIn.text)![1]!.replaceAll('&amp;', '&');
    const back = await browse('/dashboard/sign-in', { form: { email: SEED_USER.email, next } });
    expect(back.location).toBe(authorizeUrl());
    const consent = await browse(back.location!, { cookie: back.cookie! });
    expect(consent.status).toBe(200);
    // The business being connected, not the app's owner: on the demo the owner is the sandbox's seeded business,
    // and "An app of Demo Store" on Acme Marketplace's consent page named a business the merchant never heard of.
    expect(consent.text).toContain('<h1>Acme Platform wants to connect to Demo Store</h1>');
    expect(consent.text).not.toContain('An app of');
    expect(consent.text).toContain('Create, view, cancel and refund payments');
    expect(consent.headers.get('x-frame-options')).toBe('DENY');
    expect(consent.headers.get('cache-control')).toBe('no-store');
  });

  it('redirects scope and PKCE errors to redirect_uri with the state; shows a page for a bad client', async () => {
    const cookie = await signInAs(SEED_USER.email);
    const expectBack = async (params: Record<string, string>, error: string) => {
      const answer = await browse(authorizeUrl(params), { cookie });
      expect(answer.status, JSON.stringify(params)).toBe(303);
      const back = new URL(answer.location!);
      expect(back.origin + back.pathname).toBe(REDIRECT);
      expect(back.searchParams.get('error')).toBe(error);
      expect(back.searchParams.get('state')).toBe('st-9');
      expect(back.searchParams.get('code')).toBeNull();
    };
    await expectBack({ scope: 'commerce:delete' }, 'invalid_scope');
    await expectBack({ scope: 'payments everything' }, 'invalid_scope');
    await expectBack({ response_type: 'token' }, 'unsupported_response_type');
    await expectBack({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request');
    await expectBack({ code_challenge: 'a'.repeat(43) }, 'invalid_request');

    const unknownClient = await browse(authorizeUrl({ client_id: 'app_nope' }), { cookie });
    expect(unknownClient.status).toBe(400);
    expect(unknownClient.location).toBeNull();
    const lookalike = await browse(authorizeUrl({ redirect_uri: `${REDIRECT}/../evil` }), { cookie });
    expect(lookalike.status).toBe(400);
    const prefixed = await browse(authorizeUrl({ redirect_uri: `${REDIRECT}?next=https://evil.example` }), { cookie });
    expect(prefixed.status).toBe(400);
    const twice = await browse(`${authorizeUrl()}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`, {
      cookie,
    });
    expect(twice.status).toBe(400);
    expect(twice.location).toBeNull();
  });

  it('shows a member a refusal, and refuses an approval a member posts anyway', async () => {
    await addMember(sandbox);
    const cookie = await signInAs(MEMBER_EMAIL);
    const page = await browse(authorizeUrl(), { cookie });
    expect(page.status).toBe(403);
    expect(page.text).toContain('Only an Owner or Admin');
    expect(page.text).not.toContain('name="csrf"');
    // No page shows a member a CSRF token; a guessed one is refused before the role is even looked at.
    const forced = await browse('/oauth/authorize', {
      cookie,
      form: approval('guess'),
    });
    expect(forced.status).toBe(403);
    expect(forced.location).toBeNull();
    // With the session's real token (read from the sandbox's memory), the role check still refuses.
    const session = sandbox.context.oauth.sessions.get(cookie.split('=')[1]!)!;
    const withToken = await browse('/oauth/authorize', {
      cookie,
      form: approval(session.csrf),
    });
    expect(withToken.status).toBe(403);
    expect(withToken.text).toContain('Only an Owner or Admin');
    expect(withToken.location).toBeNull();
  });

  it('refuses approval for a business the user is not Owner or Admin of, even with a good CSRF token', async () => {
    const other = await createBusiness(sandbox, { name: 'Other' });
    const cookie = await signInAs(SEED_USER.email);
    const consent = await browse(authorizeUrl(), { cookie });
    const approve = await browse('/oauth/authorize', {
      cookie,
      form: approval(csrfOf(consent.text), other.id),
    });
    expect(approve.status).toBe(403);
    expect(approve.location).toBeNull();
  });

  it('refuses a consent form posted cross-site, and one without a session', async () => {
    const cookie = await signInAs(SEED_USER.email);
    const consent = await browse(authorizeUrl(), { cookie });
    const fields = approval(csrfOf(consent.text));
    const crossSite = await browse('/oauth/authorize', {
      cookie,
      form: fields,
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect((await browse('/oauth/authorize', { form: fields })).status).toBe(401);
    // A CSRF token of non-ASCII characters is a refusal, not a crash.
    const odd = await browse('/oauth/authorize', { cookie, form: { ...fields, csrf: 'é'.repeat(32) } });
    expect(odd.status).toBe(403);
  });

  it('escapes what the app and the request put on the page', async () => {
    const hostile = await registerApp(sandbox, { name: '<img src=x onerror=alert(1)>', redirectUris: [REDIRECT] });
    const cookie = await signInAs(SEED_USER.email);
    const consent = await browse(
      authorizeUrl({ client_id: hostile.client_id, scope: 'business:read', state: '"><script>alert(1)</script>' }),
      { cookie },
    );
    expect(consent.status).toBe(200);
    expect(consent.text).not.toContain('<img src=x');
    expect(consent.text).not.toContain('<script>alert(1)');
  });
});

describe('Connected apps', () => {
  async function connect(): Promise<string> {
    const { code } = await approveOnSandbox(sandbox, {
      userId: SEED_USER.id,
      clientId: app.client_id,
      redirectUri: REDIRECT,
      scope: 'payments:read',
      businessId: sandbox.seed.businessId,
    });
    const tokens = await exchangeCodeOnSandbox(sandbox, app, { code, redirectUri: REDIRECT });
    return tokens.body.access_token;
  }
  const info = async (token: string) =>
    (await call(sandbox, 'GET', '/v1/info', { apiKey: null, headers: { authorization: `Bearer ${token}` } })).status;

  it('lists the connection with its scopes; Revoke kills the token at once', async () => {
    const token = await connect();
    const cookie = await signInAs(SEED_USER.email);
    const listed = await browse('/dashboard/connected-apps', { cookie });
    expect(listed.text).toContain('Acme Platform');
    expect(listed.text).toContain('View payments and payment requests');
    const revoked = await browse('/dashboard/connected-apps/revoke', {
      cookie,
      form: { business_id: sandbox.seed.businessId, client_id: app.client_id, csrf: csrfOf(listed.text) },
    });
    expect(revoked.status).toBe(303);
    expect(await info(token)).toBe(401);
    expect((await browse('/dashboard/connected-apps', { cookie })).text).toContain('No app is connected.');
  });

  it('refuses a revocation without the CSRF token, and by a member', async () => {
    const token = await connect();
    const cookie = await signInAs(SEED_USER.email);
    const noCsrf = await browse('/dashboard/connected-apps/revoke', {
      cookie,
      form: { business_id: sandbox.seed.businessId, client_id: app.client_id },
    });
    expect(noCsrf.status).toBe(403);
    await addMember(sandbox);
    const clerk = await signInAs(MEMBER_EMAIL);
    const page = await browse('/dashboard/connected-apps', { cookie: clerk });
    expect(page.status).toBe(403);
    expect(page.text).not.toContain('Acme Platform');
    expect(await info(token)).toBe(200);
  });
});
