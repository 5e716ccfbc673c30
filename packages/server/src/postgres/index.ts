/**
 * `@paykit/server/postgres`: every piece of paykit's server state (merchant connections and their refresh
 * leases, webhook claims, idempotency keys, the token endpoint's budget) in one PostgreSQL database, so that
 * any number of instances behave as one. Needs the `postgres` package (an optional peer dependency).
 *
 * @packageDocumentation
 */
export { createPostgresStores, type PostgresStoresOptions } from './create-postgres-stores.js';
export type { PostgresStores } from './stores.js';
export type { PostgresJsClient } from './postgres-js.js';
export type { CredentialKey } from '../oauth/credential-sealer.js';
