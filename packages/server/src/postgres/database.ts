/**
 * What the stores need of a PostgreSQL driver: parameterised queries, and transactions that hold one
 * connection for a few statements. One small adapter per driver (node-postgres.ts); the stores never see
 * the driver.
 */

/** Runs one parameterised statement (`$1`, `$2`, ...). */
export interface Queryable {
  /** The rows of the statement. Every failure to reach the database rejects with `store_unavailable`. */
  query<Row extends object>(text: string, values?: readonly unknown[]): Promise<Row[]>;
}

/** A pool of connections to one database. */
export interface Database extends Queryable {
  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Ends the pool if the stores created it; a pool the application gave is left open. */
  close(): Promise<void>;
}
