/**
 * `@paykit/sandbox`: a local, stateful emulator of the whole Payments API, its checkout page and its
 * webhooks, for the demo and for every test. Never imported by `@paykit/elements` or `@paykit/server`.
 *
 * @packageDocumentation
 */
export { startSandbox, type RunningSandbox, type SandboxOptions } from './start.js';
export { createSandboxApp } from './app.js';
export { SandboxDataFileError, type SandboxDataFileErrorCode } from './data-file.js';
export { SANDBOX_SEED } from './seed.js';
export { describeListenError, stopOnSignals } from './process-lifetime.js';
export { seedPlatform, SEEDED_PLATFORM, type SeededPlatform } from './seed-platform.js';
export { SEED_USER } from './oauth/oauth-state.js';
export type { SandboxContext } from './context.js';
export type {
  DeliveryAttempt,
  WebhookDelivery,
  WebhookDispatcherOptions,
  WebhookFault,
} from './webhooks/dispatcher.js';
