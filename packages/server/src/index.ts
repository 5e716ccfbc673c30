/**
 * `@paykit/server`: what a merchant's backend needs to take payments with paykit's elements: the handler
 * they talk to, and the payment-request client it is built on. It imports no `node:` module, so that it runs
 * on every Fetch-API runtime (Node, Bun, Deno, Cloudflare Workers). What needs Node's own modules has an entry
 * of its own: the adapters for `node:http` and Express (`@paykit/server/node`, `@paykit/server/express`) and
 * the file stores (`@paykit/server/files`).
 *
 * @packageDocumentation
 */
export {
  createPaykitHandler,
  type CheckOptions,
  type CheckReport,
  type PaykitHandler,
} from './handler/create-handler.js';
export type { Answer, BodyReader, Exchange, HeaderReader } from './handler/exchange.js';
export type {
  ConfirmedEvent,
  EventContext,
  FactSource,
  HookContext,
  MerchantViewAccess,
  PaykitHandlerOptions,
  WebhookSaltContext,
} from './handler/options.js';
export type { ReconcileOptions, ReconcileReport } from './facts/reconcile.js';
export { requiredEnv } from './required-env.js';
export { verifyWebhook, type VerifiedWebhook, type VerifyWebhookInput } from './webhooks/verify-webhook.js';
export type { WebhookFormat } from './webhooks/received-webhook.js';
export { MemoryEventStore, type ClaimResult, type EventStore } from './handler/event-store.js';
export {
  MemoryIdempotencyStore,
  type IdempotencyClaim,
  type IdempotencyClaimOptions,
  type IdempotencyStore,
} from './handler/idempotency-store.js';
export type { Logger } from './handler/logger.js';
export { createMerchantApi, type MerchantApi } from './api/merchant-api.js';
export type { PageQuery } from './client/operation-methods.js';
export type { ApiAuth, ApiConfig, PaginationNames, RetryPolicy } from './api/config.js';
export type { CallOptions } from './api/transport.js';
export { PaykitError, isPaykitError, type ErrorCode } from '@paykit/core';
export {
  createPlatform,
  type CodeCallback,
  type ConnectedBusiness,
  type MerchantConnection,
  type Platform,
  type PlatformOAuthOptions,
  type PlatformOptions,
} from './platform/platform.js';
export {
  MemoryConnectionStore,
  type ConnectionFacts,
  type ConnectionStore,
  type EndedConnection,
  type LiveCredentials,
  type MerchantCredentials,
  type OAuthTokens,
} from './oauth/connection-store.js';
export { MemoryCodeLedger, type CodeLedger, type MemoryCodeLedgerOptions } from './oauth/code-ledger.js';
export {
  createOAuthClient,
  type CodeExchangeInput,
  type CodeExchangeOptions,
  type OAuthClient,
  type TokenRequestOptions,
} from './oauth/oauth-client.js';
export type { OAuthClientOptions } from './oauth/oauth-client-options.js';
export type { DiscoveryAlgorithm, OAuthEndpoints } from './oauth/authorization-server.js';
export type { ClientAuthentication } from './oauth/client-authentication.js';
export { MemoryTokenBudget, type TokenBudget, type TokenBudgetOptions } from './oauth/token-budget.js';
export type { RefreshLeases } from './oauth/refresh-leases.js';
