/**
 * What a handler says once per process when it starts in production with settings that only suit one process
 * or a test: state kept in memory, and webhooks without a salt. Never said outside production.
 */
import { PaykitError } from '@paykit/core';
import { isProduction, type MemoryState } from '../runtime.js';
import { MemoryEventStore } from './event-store.js';
import { MemoryIdempotencyStore } from './idempotency-store.js';
import type { Logger } from './logger.js';
import type { PaykitHandlerOptions } from './options.js';

let warnedOfMemoryStores = false;

/**
 * In production, an event store in memory is a refusal, not a warning: it forgets every fact at each restart
 * (a deploy, a crash, a serverless cold start), and remembering only from its own start, it then acts on nothing
 * paid before, so a webhook retried across a deploy would fulfil nothing. Accepted only when the shop says one
 * process that is never restarted is all there is (`singleProcess: true`).
 */
export function refuseMemoryEventStore(options: PaykitHandlerOptions): void {
  if (!isProduction() || options.singleProcess === true) return;
  const events = options.eventStore;
  if (events !== undefined && !(events instanceof MemoryEventStore)) return;
  throw new PaykitError(
    'validation_failed',
    `createPaykitHandler in production (NODE_ENV=production) with ${events === undefined ? 'no eventStore (so one in memory)' : 'a MemoryEventStore'}: ` +
      'it forgets at every restart which payments were acted on, and acts on none made before it started. Pass a ' +
      'durable store as eventStore: stores.events of createPostgresStores() from @paykit/server/postgres (several ' +
      'instances, serverless), or new FileEventStore({ path }) from @paykit/server/files (one process that ' +
      'restarts). If one process that is never restarted is truly all there is, say so with singleProcess: true.',
    { errors: [{ path: 'eventStore', message: 'must be a durable store in production (or set singleProcess: true)' }] },
  );
}

/**
 * In production, state kept in one process's memory breaks paykit's promises as soon as there is a second
 * instance (or a serverless cold start): say so once, in words that name what is lost.
 */
export function warnOfMemoryStores(options: PaykitHandlerOptions, logger: Logger): void {
  if (warnedOfMemoryStores || !isProduction()) return;
  // One process that is never restarted, said with singleProcess: memory is all it needs.
  if (options.singleProcess === true) return;
  const inMemory = memoryState(options, { given: false }).map((state) => state.lost);
  if (inMemory.length === 0) return;
  warnedOfMemoryStores = true;
  logger.warn(
    `paykit: NODE_ENV is production but these are kept in this process's memory only: ${inMemory.join('; ')}. ` +
      'With more than one instance, pass the stores of createPostgresStores() from @paykit/server/postgres.',
  );
}

/**
 * The handler's state kept in memory: the stores left out, and with `given` also memory stores passed in (on a
 * server one process may deliberately be all there is; on Workers never). A platform's comes with it.
 */
export function memoryState(options: PaykitHandlerOptions, { given }: { given: boolean }): MemoryState[] {
  const idempotency = options.idempotencyStore;
  const events = options.eventStore;
  return [
    ...(idempotency === undefined || (given && idempotency instanceof MemoryIdempotencyStore)
      ? [
          {
            option: 'idempotencyStore',
            lost: 'idempotency keys (a retried click on another instance makes a second payment request)',
          },
        ]
      : []),
    ...(events === undefined || (given && events instanceof MemoryEventStore)
      ? [{ option: 'eventStore', lost: 'webhook claims (a delivery that reaches two instances runs onEvent twice)' }]
      : []),
    ...(options.platform?.processLocalState ?? []).map((lost) => ({ option: 'platform', lost })),
  ];
}

let warnedOfUnsignedWebhooks = false;

/**
 * Without a salt, a webhook's only proof is the re-fetch: a forged one costs the shop an API call per delivery
 * and is refused only once the API disagrees. Said once, in production, with where the salt is found.
 */
export function warnOfUnsignedWebhooks(options: PaykitHandlerOptions, logger: Logger): void {
  if (warnedOfUnsignedWebhooks || options.webhookSalt !== undefined) return;
  if (!isProduction()) return;
  warnedOfUnsignedWebhooks = true;
  logger.warn(
    'paykit: NODE_ENV is production and no webhookSalt is set, so webhook signatures are not checked (each ' +
      'delivery is still confirmed with the API). Pass webhookSalt: the salt shown beside the API key in the ' +
      "payment service's dashboard.",
  );
}
