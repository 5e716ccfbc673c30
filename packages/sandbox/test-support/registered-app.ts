/**
 * The fixture of the sandbox's OAuth tests: a sandbox on a free port for the file, reset before each test, with
 * one platform app (Acme Platform, {@link REDIRECT}, `business:read payments`) registered afresh.
 */
import { call } from '@paykit/test-support/sandbox-calls';
import { registerApp } from '@paykit/test-support/sandbox-control';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../src/start.js';

/** The app's one redirect URI. */
export const REDIRECT = 'https://platform.example/connect/callback';

/** The registered app's credentials. */
export interface RegisteredApp {
  client_id: string;
  client_secret: string;
}

/**
 * Registers the hooks: `options` start the sandbox (`port: 0` unless given); `ready` receives the sandbox and the
 * app before each test (a test file keeps them in its own variables).
 */
export function useRegisteredApp(
  ready: (fixture: { sandbox: RunningSandbox; app: RegisteredApp }) => void,
  options: SandboxOptions = {},
): void {
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ...options });
  });
  afterAll(() => sandbox?.close());
  beforeEach(async () => {
    const running = sandbox!; // started by beforeAll, which vitest runs first
    await call(running, 'POST', '/_sandbox/reset');
    const app = await registerApp(running, {
      name: 'Acme Platform',
      redirectUris: [REDIRECT],
      scopes: ['business:read', 'payments'],
    });
    ready({ sandbox: running, app });
  });
}
