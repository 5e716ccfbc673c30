/**
 * The part of `oidc-provider` (which ships JavaScript without types) that test/support/oidc-provider.ts uses.
 * Written from its docs (docs/README.md of panva/node-oidc-provider 9.x): the provider is a Koa application.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** An OAuth 2.0 / OpenID Connect authorization server. */
  export class Provider {
    /** `configuration` as the docs' "Configuration options" describe it. */
    constructor(issuer: string, configuration?: Record<string, unknown>);
    /** The issuer identifier given to the constructor. */
    readonly issuer: string;
    /** A `node:http` request listener (Koa's). */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    /** Subscribes to an event of docs/events.md (`grant.success`, `server_error`, ...). */
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  /** The errors a configuration helper may throw. */
  export const errors: {
    /** RFC 8707 `invalid_target`: the resource indicator is not one this server issues tokens for. */
    InvalidTarget: new (description?: string) => Error;
  };

  export default Provider;
}
