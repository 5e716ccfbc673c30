/**
 * The process of the store outage test (packages/server/src/postgres/outage.test.ts): where it is, what it
 * takes and what it says. The process itself is store-outage-process.ts; importing this module starts nothing.
 */
/**
 * The TypeScript file of the process, for `nodeEntry` (node-entry.ts); `fork` that with no `execArgv`, its
 * {@link OutageProcessConfig} as JSON in `argv[2]`.
 */
export const STORE_OUTAGE_PROCESS = new URL('./store-outage-process.ts', import.meta.url);

/** What the test passes in `argv[2]`. */
export interface OutageProcessConfig {
  url: string;
  tablePrefix: string;
  encryptionKey: string;
  /** Workers calling the stores at once. */
  concurrency: number;
  /**
   * The stores' circuit breaker (default on). Off, every call goes to the driver while the database is away, so
   * that its failure paths (a connection cut as it is made) are hammered rather than skipped.
   */
  circuitBreaker?: boolean;
}

/** The outcomes of one store method so far. */
export interface Tally {
  ok: number;
  /** Rejections with PaykitError `store_unavailable`. */
  unavailable: number;
  /** Any other rejection: its first few, as `code: message`. */
  other: string[];
  otherCount: number;
  /** The slowest settled call, in ms. */
  maxMs: number;
  /** `Date.now()` of the last success. */
  lastOkAt: number;
}

/** What the process tells the test. */
export type OutageProcessMessage =
  | { type: 'ready' }
  | { type: 'tally'; at: number; tallies: Record<string, Tally> }
  | { type: 'finished'; tallies: Record<string, Tally>; hung: string[] };
