/**
 * Faults of a live PostgreSQL for the deadline tests and the bench (a frozen server is `TestPostgres.pause()`):
 * a table locked by another connection, statements made slow, and a look at what the server is doing meanwhile.
 * Each fault is undone by what it returns; undo it in a `finally`, so that a failing test leaves nothing behind.
 */

/** A connection to run SQL on: a connected `pg.Client` fits (test-support itself does not depend on a driver). */
export interface SqlConnection {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  end(): Promise<void>;
}

/** Opens a new connection to the database under test (`TestPostgres.connect`, or a `pg.Client` of the test's). */
export type Connect = () => Promise<SqlConnection>;

/** A fault in place; `undo()` removes it (and may be called again safely). */
export interface Fault {
  undo(): Promise<void>;
}

/**
 * Locks `table` in ACCESS EXCLUSIVE mode from a connection of its own, in a transaction held open until `undo()`
 * commits it: every statement on the table (a read included) waits for the lock meanwhile.
 */
export async function lockTable(connect: Connect, table: string): Promise<Fault> {
  const client = await connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  let done: Promise<void> | undefined;
  return {
    undo: () => (done ??= client.query('COMMIT').then(() => client.end())),
  };
}

/**
 * Makes every INSERT into `table` take `seconds` of the server's time (a trigger that sleeps before the row is
 * written): slow statements, not lock waits. `undo()` drops the trigger.
 */
export async function slowInserts(connect: Connect, table: string, seconds: number): Promise<Fault> {
  const client = await connect();
  const fn = `${table}_slow_insert`;
  try {
    await client.query(
      `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN PERFORM pg_sleep(${Number(seconds)}); RETURN NEW; END $$`,
    );
    await client.query(`CREATE TRIGGER ${fn} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
  } finally {
    await client.end();
  }
  let done: Promise<void> | undefined;
  return {
    undo: () =>
      (done ??= (async () => {
        const undoing = await connect();
        try {
          await undoing.query(`DROP TRIGGER IF EXISTS ${fn} ON ${table}`);
          await undoing.query(`DROP FUNCTION IF EXISTS ${fn}()`);
        } finally {
          await undoing.end();
        }
      })()),
  };
}

/** One backend of the server, as pg_stat_activity shows it. */
export interface Backend {
  pid: number;
  applicationName: string;
  state: string | null;
  waitEventType: string | null;
  query: string;
}

/**
 * The backends of client connections (not the server's own processes, not this look's connection), of one
 * application if `applicationName` is given (paykit's own pool names itself `paykit`).
 */
export async function backends(connect: Connect, applicationName?: string): Promise<Backend[]> {
  const client = await connect();
  try {
    const { rows } = await client.query(
      `SELECT pid, application_name AS "applicationName", state, wait_event_type AS "waitEventType", query
       FROM pg_stat_activity
       WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()
         AND ($1::text IS NULL OR application_name = $1)`,
      [applicationName ?? null],
    );
    return rows as Backend[];
  } finally {
    await client.end();
  }
}

/**
 * Backends, of any application, still working on a statement that names `table`: running it, or waiting for a
 * lock to run it (a connection holding a lock in an open transaction is idle, not busy).
 */
export async function busyOn(connect: Connect, table: string): Promise<Backend[]> {
  return (await backends(connect)).filter((backend) => backend.state === 'active' && backend.query.includes(table));
}

/**
 * A statement by which the stores give back a claim whose answer never came (its caller was told
 * `store_unavailable` at the deadline: packages/server/src/postgres/abandoned-claims.ts): `DELETE … RETURNING 1
 * AS removed`, guarded by the claim's own id. While a table stays locked it waits its `lock_timeout` like any
 * other statement, and is tried again every second for the claim's lease (30 s for an idempotency key).
 */
export const isGiveBack = (backend: Backend): boolean => /RETURNING 1 AS removed\s*$/.test(backend.query);

/**
 * {@link busyOn} without the give-backs ({@link isGiveBack}), each as one line for a failure message: the
 * statements that write for a caller, which must end by themselves once their caller was answered.
 */
export async function callersBusyOn(connect: Connect, table: string): Promise<string[]> {
  return (await busyOn(connect, table))
    .filter((backend) => !isGiveBack(backend))
    .map((backend) => `${backend.applicationName} (${backend.waitEventType ?? 'running'}): ${oneLine(backend.query)}`);
}

/** A statement's text on one line, cut to a length a failure message can show. */
const oneLine = (query: string): string => query.replace(/\s+/g, ' ').trim().slice(0, 120);
