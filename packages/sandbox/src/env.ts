/** Hono's `Env` of the sandbox app, so that `c.get('caller')` is typed on every `/v1` route. */
import type { Caller } from './auth.js';

/** Hono's typing of the sandbox app: `/v1` routes carry the authenticated caller. */
export interface SandboxEnv {
  Variables: { caller: Caller };
}
