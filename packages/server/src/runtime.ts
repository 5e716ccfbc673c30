/**
 * What the handler needs to know of the runtime it runs on, read without importing anything of Node: the main
 * entry runs on Node, Bun, Deno and Cloudflare Workers alike.
 */
import { PaykitError } from '@paykit/core';

/**
 * True on Cloudflare Workers (workerd, also under Miniflare and `wrangler dev`), whose `navigator.userAgent` is
 * this fixed string (the platform's documented way to tell).
 *
 * @see https://developers.cloudflare.com/workers/runtime-apis/web-standards/#navigatoruseragent
 */
export function isCloudflareWorkers(): boolean {
  // Typed optional: Node before 21 has no `navigator`.
  const holder = globalThis as { navigator?: { userAgent?: unknown } };
  return holder.navigator?.userAgent === 'Cloudflare-Workers';
}

/**
 * `NODE_ENV === 'production'`. Read as the literal `process.env.NODE_ENV`, so that a bundler's define (wrangler's,
 * esbuild's `--define`) replaces it, and guarded, since a Worker without `nodejs_compat` has no `process` at all.
 */
export function isProduction(): boolean {
  try {
    return process.env.NODE_ENV === 'production';
  } catch {
    return false;
  }
}

/** One store option that keeps its state in memory, for {@link refuseMemoryStateOnWorkers}. */
export interface MemoryState {
  /** The option to set (`eventStore`, `platform.store`, ...). */
  option: string;
  /** What is lost, in words (`webhook claims (a delivery that reaches two instances runs onEvent twice)`). */
  lost: string;
}

/**
 * Refuses, on Cloudflare Workers in production, state kept in memory: a Worker runs in many isolates at once,
 * each with its own memory, created and dropped by the platform at will, so what one request leaves in memory
 * the next one (in another isolate) does not see. On a server the same thing is a warning (one process may be
 * all there is); on Workers it is never true, so it is an error at creation rather than lost payments later.
 *
 * @param where The function being configured (`createPaykitHandler`), for the message.
 */
export function refuseMemoryStateOnWorkers(where: string, inMemory: readonly MemoryState[]): void {
  if (inMemory.length === 0 || !isCloudflareWorkers() || !isProduction()) return;
  throw new PaykitError(
    'validation_failed',
    `${where} on Cloudflare Workers in production would keep these in memory: ` +
      `${inMemory.map((state) => `${state.lost} [${state.option}]`).join('; ')}. ` +
      'Each isolate of a Worker has its own memory, and Workers run many isolates and replace them at will, so ' +
      'the next request rarely sees what this one kept. Pass stores shared by every isolate: the stores of ' +
      'createPostgresStores() from @paykit/server/postgres, opened for each request (see "Cloudflare Workers" ' +
      'in the @paykit/server README), or stores of your own on a shared database.',
    {
      errors: inMemory.map((state) => ({
        path: state.option,
        message: 'keeps its state in one isolate’s memory: give a store shared by every isolate',
      })),
    },
  );
}
