import { describe, expect, it } from 'vitest';
import { authorizeParamsSchema, callbackParamsSchema, tokenRequestSchema, tokenResponseSchema } from './oauth.js';

const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('OAuth schemas', () => {
  it('accepts authorize parameters with S256 PKCE and refuses plain or half PKCE', () => {
    const base = {
      client_id: 'app_1',
      redirect_uri: 'https://platform.example/cb',
      response_type: 'code',
      scope: 'payments business:read',
      state: 's',
    };
    expect(
      authorizeParamsSchema.parse({ ...base, code_challenge: challenge, code_challenge_method: 'S256' }).scope,
    ).toEqual(['payments', 'business:read']);
    expect(
      authorizeParamsSchema.safeParse({ ...base, code_challenge: challenge, code_challenge_method: 'plain' }).success,
    ).toBe(false);
    expect(authorizeParamsSchema.safeParse({ ...base, code_challenge: challenge }).success).toBe(false);
    expect(authorizeParamsSchema.safeParse({ ...base, response_type: 'token' }).success).toBe(false);
    expect(authorizeParamsSchema.safeParse({ ...base, scope: 'admin' }).success).toBe(false);
    expect(authorizeParamsSchema.safeParse({ ...base, redirect_uri: 'http://platform.example/cb' }).success).toBe(
      false,
    );
  });

  it('tells the two grants apart and refuses stray fields', () => {
    const code = {
      grant_type: 'authorization_code',
      client_id: 'a',
      client_secret: 's',
      redirect_uri: 'https://p.example/cb',
      code: 'c',
    };
    expect(tokenRequestSchema.parse(code).grant_type).toBe('authorization_code');
    expect(tokenRequestSchema.safeParse({ ...code, refresh_token: 'r' }).success).toBe(false);
    expect(tokenRequestSchema.safeParse({ ...code, grant_type: 'password' }).success).toBe(false);
  });

  it('reads a token response with any case of Bearer, and refuses other token types', () => {
    const body = { token_type: 'bearer', expires_in: 31536000, access_token: 'a', refresh_token: 'r' };
    expect(tokenResponseSchema.parse(body).expires_in).toBe(31536000);
    expect(tokenResponseSchema.safeParse({ ...body, token_type: 'mac' }).success).toBe(false);
    expect(tokenResponseSchema.safeParse({ ...body, expires_in: -1 }).success).toBe(false);
  });

  it('reads a callback with a code or with an error, always with state', () => {
    expect(callbackParamsSchema.safeParse({ code: 'c', state: 's' }).success).toBe(true);
    expect(callbackParamsSchema.safeParse({ error: 'access_denied', state: 's' }).success).toBe(true);
    expect(callbackParamsSchema.safeParse({ code: 'c' }).success).toBe(false);
  });
});
