/**
 * The OAuth 2.0 authorization-code flow of spec 4.8, 4.9 and 2.8: the authorize parameters, the token
 * request forms, the token response, the callback parameters, and the business profile of `GET /v1/info`.
 */
import * as z from 'zod';
import { parseScopeList } from '../scopes.js';
import { webUrl } from './fields.js';

const opaque = (max: number) => z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** A space-separated list of known scopes, at least one. */
export const scopeList = z
  .string()
  .max(1024, 'must be at most 1024 characters')
  .transform((text, ctx) => {
    const parsed = parseScopeList(text);
    if (!parsed.ok) {
      // The unknown name is shown cut short: an error must not echo an attacker's long value back.
      const name = parsed.unknown.length > 40 ? `${parsed.unknown.slice(0, 40)}…` : parsed.unknown;
      ctx.issues.push({ code: 'custom', message: `"${name}" is not a scope`, input: text });
      return z.NEVER;
    }
    if (parsed.scopes.length === 0) {
      ctx.issues.push({ code: 'custom', message: 'must name at least one scope', input: text });
      return z.NEVER;
    }
    return parsed.scopes;
  });

/** A PKCE `code_challenge` or `code_verifier`: 43 to 128 unreserved characters (RFC 7636 section 4.1). */
export const pkceValue = z
  .string()
  .regex(/^[A-Za-z0-9._~-]{43,128}$/, 'must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');

/**
 * The query of `{dashboard_url}/oauth/authorize` (spec 4.9). PKCE is optional in the spec; when a challenge
 * is given, its method must be `S256` (`plain` is refused: it protects nothing).
 */
export const authorizeParamsSchema = z
  .strictObject({
    client_id: opaque(255),
    redirect_uri: webUrl,
    response_type: z.literal('code', { error: 'must be "code"' }),
    scope: scopeList,
    state: opaque(512).optional(),
    code_challenge: pkceValue.optional(),
    code_challenge_method: z.literal('S256', { error: 'must be "S256"' }).optional(),
  })
  .superRefine((params, ctx) => {
    if ((params.code_challenge === undefined) !== (params.code_challenge_method === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['code_challenge_method'],
        message: 'must come with code_challenge, and only with it',
      });
    }
  });

/** The authorize parameters, checked. */
export type AuthorizeParams = z.output<typeof authorizeParamsSchema>;

/** The form of `POST /v1/open/oauth/token` (spec 4.8), by grant type. */
export const tokenRequestSchema = z.discriminatedUnion(
  'grant_type',
  [
    z.strictObject({
      grant_type: z.literal('authorization_code'),
      client_id: opaque(255),
      client_secret: opaque(512),
      redirect_uri: opaque(2048),
      code: opaque(512),
      code_verifier: pkceValue.optional(),
    }),
    z.strictObject({
      grant_type: z.literal('refresh_token'),
      client_id: opaque(255),
      client_secret: opaque(512),
      refresh_token: opaque(1024),
    }),
  ],
  { error: 'must be "authorization_code" or "refresh_token"' },
);

/** A token request, checked. */
export type TokenRequest = z.output<typeof tokenRequestSchema>;

/** The token response (spec 2.8), parsed leniently; `token_type` is compared without case. */
export const tokenResponseSchema = z.looseObject({
  token_type: z.string().refine((type) => type.toLowerCase() === 'bearer', 'must be Bearer'),
  expires_in: z.number().int().positive(),
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  scope: z.string().optional(),
});

/** A token response. */
export type TokenResponse = z.output<typeof tokenResponseSchema>;

/** An OAuth error body (RFC 6749 section 5.2). The spec does not show the token endpoint's errors. */
export const oauthErrorSchema = z.looseObject({
  error: z.string().min(1),
  error_description: z.string().optional(),
});

/** What comes back to `redirect_uri` (spec 4.9): a code and the state, or an error and the state. */
export const callbackParamsSchema = z.union([
  z.looseObject({ code: opaque(512), state: opaque(512) }),
  z.looseObject({ error: opaque(64), error_description: z.string().max(1024).optional(), state: opaque(512) }),
]);

/** Callback parameters. */
export type CallbackParams = z.output<typeof callbackParamsSchema>;

/**
 * The business profile of `GET /v1/info`. The spec names four facts (name, country, currency, whether
 * payments are enabled) and not the field names; these are paykit's, and the sandbox's.
 */
export const businessInfoSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string(),
  country: z.string(),
  currency: z.string(),
  payments_enabled: z.boolean(),
});

/** A business profile. */
export type BusinessInfo = z.output<typeof businessInfoSchema>;
