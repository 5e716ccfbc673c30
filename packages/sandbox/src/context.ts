import type { SandboxState } from './state.js';
import type { WebhookDispatcher } from './webhooks.js';

/** What every route of the sandbox works with. */
export interface SandboxContext {
  readonly state: SandboxState;
  readonly webhooks: WebhookDispatcher;
  /** The origin the sandbox is reachable at, e.g. `http://127.0.0.1:4010` (checkout URLs start with it). */
  readonly publicUrl: () => string;
}
