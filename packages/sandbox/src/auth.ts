/**
 * Who is calling: `X-BUSINESS-API-KEY` names a business; `X-PLATFORM-KEY` (optional, with it) names the
 * platform acting for that business (spec 5.1).
 */
import { SandboxError } from './errors.js';
import type { Business, SandboxState } from './state.js';

/** The authenticated caller of a `/v1` route. */
export interface Caller {
  /** The business the call acts on. */
  business: Business;
  /** The platform whose key came with the call, if any. */
  platform: Business | null;
}

/** Resolves the caller from the headers, or throws 401 `{ message }` as the spec says (7). */
export function authenticate(request: Request, state: SandboxState): Caller {
  const apiKey = request.headers.get('x-business-api-key');
  const business = apiKey ? state.businessByApiKey(apiKey) : undefined;
  if (!business) throw new SandboxError(401, 'Unauthorized: missing or invalid X-BUSINESS-API-KEY', 'unauthorized');
  const platformKey = request.headers.get('x-platform-key');
  let platform: Business | null = null;
  if (platformKey !== null) {
    platform = state.businessByPlatformKey(platformKey) ?? null;
    if (!platform) throw new SandboxError(401, 'Unauthorized: invalid X-PLATFORM-KEY', 'unauthorized');
  }
  return { business, platform };
}
