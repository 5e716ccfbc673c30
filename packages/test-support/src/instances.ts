/**
 * A fleet of platform backends as separate processes (`fork`, not workers: each has its own memory, its own
 * event loop and can be killed with SIGKILL), all on the same stores and the same sandbox.
 */
import type { ReconcileOptions, ReconcileReport } from '@paykit/server';
import { fork, type ChildProcess } from 'node:child_process';
import { nodeEntry } from './node-entry.js';

/** What one instance runs on. */
export interface InstanceConfig {
  index: number;
  apiBaseUrl: string;
  platformKey: string;
  clientId: string;
  clientSecret: string;
  /** Time limit of each token request; a refresh lease lasts this plus 5 s. */
  tokenTimeoutMs: number;
  /** Time limit of each Payments API call (`timeoutMs` of `createPlatform`); its 10 s default when left out. */
  apiTimeoutMs?: number;
  /** The origin of the shop's pages (allowed to post to the handler). */
  shopOrigin: string;
  /**
   * The salts webhooks are checked with: the platform's own (its unified stream of charge events) and each
   * merchant's, by business id (their payment notifications and payment-request events). Without it, no check.
   */
  webhookSalts?: { platform: string; merchants: Record<string, string> };
  stores:
    | {
        kind: 'postgres';
        url: string;
        tablePrefix: string;
        encryptionKey: string;
        /** The stores' deadline (`timeoutMs` of `createPostgresStores`); their default when left out. */
        timeoutMs?: number;
        /** How long a done fact is remembered (`eventRetentionMs`); for ever when left out. */
        eventRetentionMs?: number;
      }
    | { kind: 'file'; path: string; encryptionKey: string };
}

/** What an instance tells the test. */
export type InstanceMessage =
  | { type: 'ready'; url: string }
  | { type: 'event'; eventType: string; resourceId: string; source: string }
  | { type: 'revoked'; businessId: string }
  | { type: 'reconciled'; report: ReconcileReport }
  | { type: 'log'; level: 'warn' | 'error'; message: string };

/** A running instance. */
export interface Instance {
  readonly index: number;
  /** Its origin; the handler is under `/paykit`. */
  readonly url: string;
  readonly process: ChildProcess;
  /** Everything it said since it started. */
  readonly messages: InstanceMessage[];
}

const ENTRY = new URL('./instance-process.ts', import.meta.url);

/** Starts `count` instances and resolves once every one listens (rejects if one exits or says nothing in 30 s). */
export async function startInstances(
  count: number,
  config: Omit<InstanceConfig, 'index'>,
): Promise<{ instances: Instance[]; close(): Promise<void> }> {
  const instances = await Promise.all(Array.from({ length: count }, (_, index) => startOne({ ...config, index })));
  return {
    instances,
    close: async () => {
      await Promise.all(instances.map((instance) => stop(instance.process)));
    },
  };
}

/** What the test asks of an instance over IPC (besides stopping it). */
export type InstanceCommand = { type: 'reconcile'; options: Omit<ReconcileOptions, 'signal'> };

/** Runs `handler.reconcile` in the instance's process and resolves with its report. */
export function reconcileOn(instance: Instance, options: Omit<ReconcileOptions, 'signal'>): Promise<ReconcileReport> {
  return new Promise((resolve) => {
    const onMessage = (message: InstanceMessage): void => {
      if (message.type !== 'reconciled') return;
      instance.process.off('message', onMessage);
      resolve(message.report);
    };
    instance.process.on('message', onMessage);
    instance.process.send({ type: 'reconcile', options } satisfies InstanceCommand);
  });
}

async function startOne(config: InstanceConfig): Promise<Instance> {
  const child = fork(await nodeEntry(ENTRY), [JSON.stringify(config)], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, NODE_ENV: 'test' },
  });
  const messages: InstanceMessage[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance ${config.index} did not start within 30 s`)), 30_000);
    child.on('message', (message: InstanceMessage) => {
      messages.push(message);
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve({ index: config.index, url: message.url, process: child, messages });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`instance ${config.index} exited before listening (code ${code}, signal ${signal})`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
