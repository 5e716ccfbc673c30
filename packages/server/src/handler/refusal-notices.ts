/**
 * The shop's log hears of a configuration mistake the first time the handler refuses a request because of it
 * (issue 35): a page of the shop on an origin the options do not allow, webhooks signed with another salt than
 * `webhookSalt`, an API key the Payments API refuses, an API out of reach, a price its hook decided that cannot
 * be charged. The caller's answer already says it,
 * but a shopper reads it as "Something went wrong", and in production nobody reads the answer at all.
 *
 * One line per kind and key (the refused origin, the API's origin, the signature problem), then silence for an
 * hour with a count, so that an attacker sending forged requests, or an outage, cannot flood the log: the next
 * line after the hour says how many were refused the same way in between. A refusal that is the caller's fault
 * and not the shop's (a request without `Origin` from a script, a replayed webhook) writes nothing here. No line
 * holds a secret: they name options, never their values, and the logger masks any secret that slips through.
 */
import { PaykitError } from '@paykit/core';
import { apiFailureOf } from '../api/transport.js';
import { apiFailureLine } from './error-response.js';
import type { Exchange } from './exchange.js';
import type { Logger } from './logger.js';
import type { OriginPolicy } from './origin-guard.js';

/** What refusals are counted apart. */
export type RefusalKind =
  'cross_site_request' | 'webhook_signature' | 'api_key_refused' | 'api_unreachable' | 'checkout_misconfigured';

/** How often the same refusal may be written: once an hour (the count of the others goes with the next line). */
const WINDOW_MS = 60 * 60 * 1000;
/** Distinct keys remembered per kind (origins, mostly): beyond them, the rest share one line. */
const MAX_KEYS = 20;
/** The key that the refusals beyond {@link MAX_KEYS} share. */
const OTHERS = '(others)';

/** Decides, for each refused request, whether the log hears of it. */
export interface RefusalNotices {
  /** Writes a warning for `error` if it is a configuration mistake not written within the hour for its key. */
  refused(error: unknown, request: Pick<Exchange, 'headers' | 'url'>): void;
}

/** Options of {@link refusalNotices}; the defaults are the handler's. */
export interface RefusalNoticeOptions {
  /** The clock, in milliseconds. */
  now?: () => number;
}

/** When a key's line was last written, and how many refusals of it were counted since, not written. */
interface Seen {
  at: number;
  quiet: number;
}

/** The notices of one handler, written to `logger` (already redacting). */
export function refusalNotices(
  logger: Logger,
  policy: OriginPolicy,
  { now = Date.now }: RefusalNoticeOptions = {},
): RefusalNotices {
  const seen = new Map<RefusalKind, Map<string, Seen>>();
  const write = (kind: RefusalKind, key: string, line: string): void => {
    const time = now();
    let keys = seen.get(kind);
    if (!keys) seen.set(kind, (keys = new Map()));
    if (!keys.has(key) && keys.size >= MAX_KEYS) {
      for (const [old, entry] of keys) if (time - entry.at >= WINDOW_MS && old !== OTHERS) keys.delete(old);
      if (keys.size >= MAX_KEYS) {
        key = OTHERS;
        line =
          `paykit: ${kind}: refused for more than ${MAX_KEYS} different reasons or origins within the hour; ` +
          `the others are counted, not written one by one. The last one: ${line.replace(/^paykit: [a-z_]+: /, '')}`;
      }
    }
    const last = keys.get(key);
    if (last && time - last.at < WINDOW_MS) {
      last.quiet += 1;
      return;
    }
    const more =
      last && last.quiet > 0
        ? ` (${last.quiet} more refused the same way since ${new Date(last.at).toISOString()}, not written)`
        : '';
    keys.set(key, { at: time, quiet: 0 });
    logger.warn(line + more);
  };
  return {
    refused(error, request) {
      if (!(error instanceof PaykitError)) return;
      const notice = describe(error, request, policy);
      if (notice) write(notice.kind, notice.key, notice.line);
    },
  };
}

/** The kind, key and line of a refusal that is the shop's configuration, or nothing for any other failure. */
function describe(
  error: PaykitError,
  request: Pick<Exchange, 'headers' | 'url'>,
  policy: OriginPolicy,
): Notice | undefined {
  const path = request.url.pathname;
  const code = error.code;
  if (code === 'cross_site_request') return originNotice(request, path, policy);
  if (code === 'signature_missing' || code === 'signature_malformed' || code === 'signature_mismatch') {
    return {
      kind: 'webhook_signature',
      key: code,
      line:
        `paykit: ${code}: refused a webhook to ${path} (401): ${SIGNATURE_PROBLEM[code]}, so nothing was done with ` +
        'it. If the payment service sent it, webhookSalt is not the salt of the business that sent it: copy the ' +
        'salt shown beside its API key (the dashboard’s Settings > Payment Gateway > API Keys; the sandbox’s ' +
        '/dashboard/api-keys). A proxy or body parser that re-writes the body breaks the signature too.',
    };
  }
  if (code === 'checkout_misconfigured') {
    // The developer's words are the cause's (the shopper's are the error's own); the page's currency can be sent
    // by anyone, so these are counted like the rest.
    const detail = error.cause instanceof Error ? error.cause.message : 'the price cannot be charged';
    return { kind: code, key: detail, line: `paykit: checkout_misconfigured: ${detail}` };
  }
  if (code === 'api_unreachable' || code === 'api_key_refused') {
    const api = apiFailureOf(error.cause);
    return api && { kind: code, key: api.origin, line: apiFailureLine(api) };
  }
  return undefined;
}

interface Notice {
  kind: RefusalKind;
  key: string;
  line: string;
}

const SIGNATURE_PROBLEM = {
  signature_missing: 'it carries no signature while webhookSalt is set',
  signature_malformed: 'its signature is not a hex HMAC-SHA256 (64 characters)',
  signature_mismatch: 'its signature does not match under webhookSalt',
} as const;

/** A page's origin refused: which, what the options hold, what to set. */
function originNotice(request: Pick<Exchange, 'headers'>, path: string, policy: OriginPolicy): Notice | undefined {
  // Without Origin the caller is a script or a tool, not a page of the shop: its own mistake.
  const origin = request.headers.get('origin');
  if (origin === null) return undefined;
  const own = policy.publicOrigin === undefined ? 'publicOrigin is not set' : `publicOrigin is ${policy.publicOrigin}`;
  const others =
    policy.crossOrigins.size === 0
      ? 'allowedOrigins is empty'
      : `allowedOrigins is ${[...policy.crossOrigins].join(', ')}`;
  const who = origin === 'null' ? 'an opaque origin (null)' : origin;
  const fix =
    origin === 'null'
      ? 'A page with an opaque origin (a sandboxed frame, a file) cannot call the handler: serve it from the shop’s site.'
      : `If ${origin} is the shop’s own site, set publicOrigin: '${origin}'; if it is another site of yours, add ` +
        `'${origin}' to allowedOrigins. A site that is not yours is refused as it should be.`;
  return {
    kind: 'cross_site_request',
    key: origin,
    line: `paykit: cross_site_request: refused a request from ${who} to ${path} (403): ${own} and ${others}. ${fix}`,
  };
}
