/**
 * One instance of a platform's backend in its own process, as a fleet runs it: `createPlatform` and
 * `createPaykitHandler` on the stores the test chose, behind `node:http` on a free port of 127.0.0.1.
 *
 * Started by `startInstances` (instances.ts) with `fork`; its configuration is the JSON in
 * `argv[2]`. It tells the test on the IPC channel when it listens, and every time a hook runs.
 */
import { createPaykitHandler, createPlatform, type Logger, type WebhookSaltContext } from '@paykit/server';
import { FileConnectionStore } from '@paykit/server/files';
import { toNodeListener } from '@paykit/server/node';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InstanceCommand, InstanceConfig, InstanceMessage } from './instances.js';

const config = JSON.parse(process.argv[2] ?? '{}') as InstanceConfig;
const tell = (message: InstanceMessage): void => {
  process.send?.(message);
};

const stores =
  config.stores.kind === 'postgres'
    ? await (
        await import('@paykit/server/postgres')
      ).createPostgresStores({
        connectionString: config.stores.url,
        encryptionKey: config.stores.encryptionKey,
        tablePrefix: config.stores.tablePrefix,
        ...(config.stores.timeoutMs === undefined ? {} : { timeoutMs: config.stores.timeoutMs }),
        ...(config.stores.eventRetentionMs === undefined ? {} : { eventRetentionMs: config.stores.eventRetentionMs }),
      })
    : { connections: new FileConnectionStore({ path: config.stores.path, key: config.stores.encryptionKey }) };

const logger: Logger = {
  warn: (message) => tell({ type: 'log', level: 'warn', message }),
  error: (message) => tell({ type: 'log', level: 'error', message }),
};

const platform = createPlatform({
  apiBaseUrl: config.apiBaseUrl,
  platformKey: config.platformKey,
  ...(config.apiTimeoutMs === undefined ? {} : { timeoutMs: config.apiTimeoutMs }),
  oauth: { clientId: config.clientId, clientSecret: config.clientSecret, timeoutMs: config.tokenTimeoutMs },
  store: stores.connections,
  ...('tokenBudget' in stores ? { tokenBudget: stores.tokenBudget, codeLedger: stores.codes } : {}),
  onRevoked: (businessId) => tell({ type: 'revoked', businessId }),
  // Marks this instance's calls, so that the test knows which process sent a token request.
  fetch: (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('x-test-instance', String(config.index));
    return fetch(input, { ...init, headers });
  },
});

const handler = createPaykitHandler({
  platform,
  allowedOrigins: [config.shopOrigin],
  createPaymentRequest: (choice) => ({
    amount: '20.00',
    currency: 'SGD',
    purpose: `Deposit ${choice.reference ?? ''}`.trim(),
    platform_commission_amount: '1.00',
  }),
  returnUrl: `${config.shopOrigin}/return`,
  ...(config.webhookSalts ? { webhookSalt: saltOf(config.webhookSalts) } : {}),
  onEvent: (event) => {
    const resource = 'paymentRequest' in event ? event.paymentRequest : 'charge' in event ? event.charge : undefined;
    tell({ type: 'event', eventType: event.type, resourceId: resource?.id ?? '', source: event.source });
  },
  ...('events' in stores ? { eventStore: stores.events, idempotencyStore: stores.idempotency } : {}),
  logger,
});

/**
 * A platform's choice of salt: its own for the charge events of its unified stream, the merchant's for the rest
 * (a merchant whose salt it does not know is confirmed by the re-fetch alone).
 */
function saltOf(salts: NonNullable<InstanceConfig['webhookSalts']>) {
  return ({ format, object, businessId }: WebhookSaltContext): string | undefined =>
    format === 'event' && object === 'charge' ? salts.platform : salts.merchants[businessId ?? ''];
}

// The test's commands: a reconcile sweep run here, racing whatever the other processes do.
process.on('message', (command: InstanceCommand) => {
  if (command.type !== 'reconcile') return;
  void handler.reconcile(command.options).then((report) => tell({ type: 'reconciled', report }));
});

const server = createServer(toNodeListener(handler));
server.listen(0, '127.0.0.1', () => {
  tell({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('disconnect', () => process.exit(0));
