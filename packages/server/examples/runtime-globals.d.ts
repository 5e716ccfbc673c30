/**
 * The parts of Deno's and Bun's globals the examples use, for the repository's type check only: on their own
 * runtime these come from the runtime's types (`deno check`, `@types/bun`), which are not dependencies here.
 */
declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { hostname?: string; port?: number; onListen?(address: { hostname: string; port: number }): void },
    handler: (request: Request) => Response | Promise<Response>,
  ): unknown;
};

declare const Bun: {
  env: Record<string, string | undefined>;
  serve(options: { hostname?: string; port?: number; fetch(request: Request): Response | Promise<Response> }): {
    port: number;
  };
};
