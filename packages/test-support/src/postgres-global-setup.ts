/**
 * Vitest global setup (root vite.config.ts): one PostgreSQL server for the whole run, shared by every test
 * file that needs one (each isolates itself with its own table prefix). With `PAYKIT_TEST_DATABASE_URL` set,
 * that database is used instead and nothing is started.
 */
import type { TestProject } from 'vitest/node';
import { startTestPostgres } from './postgres.js';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.PAYKIT_TEST_DATABASE_URL;
  if (given) {
    project.provide('paykitDatabaseUrl', given);
    return undefined;
  }
  const server = await startTestPostgres();
  project.provide('paykitDatabaseUrl', server.url);
  return () => server.close();
}
