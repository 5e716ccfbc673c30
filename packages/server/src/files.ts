/**
 * `@paykit/server/files`: stores that keep paykit's state in files on the local disk, for one process that is
 * never more than one (a single server, the demo). They need `node:fs`, so they live here rather than in the
 * main entry, which runs on every Fetch-API runtime (Workers included); Node, Bun and Deno have what they need.
 * With several instances use `createPostgresStores` from `@paykit/server/postgres`.
 *
 * @packageDocumentation
 */
export { FileEventStore, type FileEventStoreOptions } from './handler/file-event-store.js';
export { FileConnectionStore, type FileConnectionStoreOptions } from './oauth/file-connection-store.js';
export type { CredentialKey } from './oauth/credential-sealer.js';
