import type { Caller } from './auth.js';

/** Hono's typing of the sandbox app: `/v1` routes carry the authenticated caller. */
export interface SandboxEnv {
  Variables: { caller: Caller };
}
