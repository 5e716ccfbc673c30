/**
 * `@paykit/server/postgres`: every piece of paykit's server state (merchant connections and their refresh
 * leases, webhook claims, idempotency keys, the token endpoint's budget, the authorization codes already tried)
 * in one PostgreSQL database, so that any number of instances behave as one. Needs the `pg` package
 * (node-postgres; an optional peer dependency).
 *
 * @packageDocumentation
 */
export { createPostgresStores, type PostgresStoresOptions } from './create-postgres-stores.js';
export type { PostgresStores } from './stores.js';
export type { NodePostgresPool } from './node-postgres.js';
export type { CredentialKey } from '../oauth/credential-sealer.js';
