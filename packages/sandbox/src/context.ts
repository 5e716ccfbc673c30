/**
 * The sandbox's parts as one object, made by `startSandbox` and handed to every route, page and handler: no part
 * is a module global, so two sandboxes in one process (the tests start many) never share state.
 */
import type { BusinessClocks } from './business-clocks.js';
import type { Hono } from 'hono';
import type { Faults } from './faults.js';
import type { OAuthState } from './oauth/oauth-state.js';
import type { RateLimit } from './oauth/rate-limit.js';
import type { SandboxState } from './state.js';
import type { WebhookDispatcher } from './webhooks/dispatcher.js';

/** What every route of the sandbox works with. */
export interface SandboxContext {
  readonly state: SandboxState;
  readonly webhooks: WebhookDispatcher;
  /** The authorization server: users, apps, codes, tokens, and its movable clock. */
  readonly oauth: OAuthState;
  /** Each business's clock: every stamp, expiry and schedule of a business reads it (`business-clocks.ts`). */
  readonly clocks: BusinessClocks;
  /** Faults armed by the control API. */
  readonly faults: Faults;
  /** The token endpoint's 90 requests a minute per client. */
  readonly tokenRateLimit: RateLimit;
  /** The fixed segment of `GET /v1/balances/{segment}/transactions` (spec 4.6 withholds it). Default `processor`. */
  readonly balanceProcessorSegment: string;
  /**
   * Content-Security-Policy violations that browsers reported for the sandbox's own pages (`report-uri
   * /_sandbox/csp-reports`, each report's JSON body as sent, the latest 100): a hosted page that breaks its own
   * policy in some browser shows up here, whatever drives that browser.
   */
  readonly cspReports: unknown[];
  /**
   * Builds the sandbox's HTTP app over a context (`createSandboxApp`): how a part that calls the API in process
   * (the trigger's fresh objects, over a muted copy of this context) reaches it without importing `app.ts`, which
   * imports every part.
   */
  readonly createApp: (context: SandboxContext) => Hono;
  /** The origin the sandbox is reachable at, e.g. `http://127.0.0.1:4010` (checkout URLs start with it). */
  readonly publicUrl: () => string;
}
