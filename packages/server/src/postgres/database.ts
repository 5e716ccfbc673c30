/**
 * What the stores need of a PostgreSQL driver: parameterised queries, and transactions that hold one
 * connection for a few statements. One small adapter per driver (node-postgres.ts); the stores never see
 * the driver.
 */

/** Runs one parameterised statement (`$1`, `$2`, ...). */
export interface Queryable {
  /**
   * The rows of the statement. Every failure to reach the database, and the deadline passing, rejects with
   * `store_unavailable` (inside a transaction: the transaction does, once it is rolled back).
   */
  query<Row extends object>(text: string, values?: readonly unknown[]): Promise<Row[]>;
}

/** Options of one {@link Database.transaction}. */
export interface TransactionOptions {
  /** Its deadline, from the call to the COMMIT's answer, in ms, instead of the stores' own (the migration's is longer). */
  timeoutMs?: number;
}

/** A pool of connections to one database. Every operation (a statement, a transaction) has a deadline. */
export interface Database extends Queryable {
  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Ends the pool if the stores created it; a pool the application gave is left open. */
  close(): Promise<void>;
}
