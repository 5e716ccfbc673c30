/**
 * A connection by OAuth on a running sandbox, in its two steps: the merchant's approval on the consent page
 * (through `POST /_sandbox/oauth/approve`, optionally with PKCE) and the platform's code exchange at the token
 * endpoint. For tests that need a code or a token to get on with; tests of the consent page and the token
 * endpoint themselves call them with `call`.
 */
import type { RunningSandbox } from '@paykit/sandbox';
import { createHash } from 'node:crypto';
import { call, type Answer } from './sandbox-calls.js';
import { accepted, type SandboxApp } from './sandbox-control.js';

/** What the merchant approves. */
export interface ApprovalOptions {
  /** The approving user (an owner or admin of `businessId`). */
  userId: string;
  clientId: string;
  redirectUri: string;
  /** Space-separated scopes. */
  scope: string;
  businessId: string;
  state?: string;
  /** With a verifier, the approval carries its S256 challenge (RFC 7636). */
  codeVerifier?: string;
}

/** The redirect back to the platform, and its `code` and `iss`. */
export interface Approval {
  redirect: URL;
  code: string;
  iss: string | null;
}

/** The merchant approves on the sandbox's consent page; resolves with the redirect it would follow. */
export async function approveOnSandbox(sandbox: RunningSandbox, options: ApprovalOptions): Promise<Approval> {
  const answer = await call(sandbox, 'POST', '/_sandbox/oauth/approve', {
    json: {
      user_id: options.userId,
      client_id: options.clientId,
      redirect_uri: options.redirectUri,
      scope: options.scope,
      ...(options.state === undefined ? {} : { state: options.state }),
      business_id: options.businessId,
      ...(options.codeVerifier === undefined
        ? {}
        : {
            code_challenge: createHash('sha256').update(options.codeVerifier).digest('base64url'),
            code_challenge_method: 'S256',
          }),
    },
  });
  const redirect = new URL(accepted(answer, 'approve').body.redirect);
  return { redirect, code: redirect.searchParams.get('code')!, iss: redirect.searchParams.get('iss') };
}

/**
 * The platform exchanges a code at the sandbox's token endpoint (`client_secret_post`); resolves with the
 * answer as it is, for the test to read or check.
 */
export function exchangeCodeOnSandbox(
  sandbox: RunningSandbox,
  app: SandboxApp,
  options: { code: string; redirectUri: string; codeVerifier?: string },
): Promise<Answer> {
  return call(sandbox, 'POST', '/v1/open/oauth/token', {
    apiKey: null,
    form: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: app.client_id,
      client_secret: app.client_secret,
      code: options.code,
      redirect_uri: options.redirectUri,
      ...(options.codeVerifier === undefined ? {} : { code_verifier: options.codeVerifier }),
    }),
  });
}
