/**
 * The stores in a process of their own (@paykit/test-support's store-outage-process.ts) while the database goes away
 * under load: the process must live through it (no error escaping from inside the driver, which would end
 * it), every failed call must be `store_unavailable` and quick, and every store method must work again soon
 * after the database is back.
 */
import { nodeEntry } from '@paykit/test-support/node-entry';
import { startTestPostgres, testTablePrefix, type TestPostgres } from '@paykit/test-support/postgres';
import {
  STORE_OUTAGE_PROCESS as ENTRY,
  type OutageProcessConfig,
  type OutageProcessMessage,
  type Tally,
} from '@paykit/test-support/store-outage';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const OUTAGES = 3;
/** How long the database stays up each time it comes back for a moment during an outage, in ms. */
const FLAPS = [0, 30];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The process under test, with what it said and wrote to stderr. */
interface Hammer {
  child: ChildProcess;
  stderr: string[];
  latest: Record<string, Tally>;
  finished?: Extract<OutageProcessMessage, { type: 'finished' }>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const hammers: Hammer[] = [];

async function startHammer(url: string, options: Pick<OutageProcessConfig, 'circuitBreaker'> = {}): Promise<Hammer> {
  const config: OutageProcessConfig = {
    url,
    tablePrefix: testTablePrefix(),
    encryptionKey: randomBytes(32).toString('hex'),
    concurrency: 8,
    ...options,
  };
  const child = fork(await nodeEntry(ENTRY), [JSON.stringify(config)], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    env: { ...process.env, NODE_ENV: 'test' },
  });
  const hammer: Hammer = {
    child,
    stderr: [],
    latest: {},
    exit: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
  };
  hammers.push(hammer);
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => hammer.stderr.push(chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the store process did not start within 30 s')), 30_000);
    child.on('message', (message: OutageProcessMessage) => {
      if (message.type === 'tally') hammer.latest = message.tallies;
      if (message.type === 'finished') hammer.finished = message;
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve();
      }
    });
    void hammer.exit.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the store process exited before it was ready (${code ?? signal}): ${hammer.stderr.join('')}`));
    });
  });
  await until(hammer, 'every method succeeds once', 10_000, (t) => {
    const methods = Object.values(t);
    return methods.length > 0 && methods.every((tally) => tally.ok > 0);
  });
  return hammer;
}

/** Fails at once, with its stderr, if the process died. */
function expectAlive(hammer: Hammer): void {
  const { exitCode, signalCode } = hammer.child;
  if (exitCode !== null || signalCode !== null) {
    throw new Error(`the store process died (${exitCode ?? signalCode}):\n${hammer.stderr.join('')}`);
  }
}

/** Waits until `check` holds for the latest tallies, failing at once if the process dies. Resolves to the ms waited. */
async function until(
  hammer: Hammer,
  what: string,
  timeoutMs: number,
  check: (tallies: Record<string, Tally>) => boolean,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    expectAlive(hammer);
    if (check(hammer.latest)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await pause(20);
  }
}

/** Waits until every method succeeded after now; resolves to the ms that took. */
function recovery(hammer: Hammer, what: string): Promise<number> {
  const since = Date.now();
  return until(hammer, `${what}: every method succeeds again`, 10_000, (t) =>
    Object.values(t).every((tally) => tally.lastOkAt > since),
  );
}

const sum = (tallies: Record<string, Tally>, field: 'ok' | 'unavailable' | 'otherCount') =>
  Object.values(tallies).reduce((total, tally) => total + tally[field], 0);

/** Stops the process, checks that it lived, exits cleanly and saw nothing but successes and store_unavailable. */
async function finish(hammer: Hammer): Promise<Record<string, Tally>> {
  expectAlive(hammer);
  hammer.child.send({ type: 'finish' });
  const exit = await hammer.exit;
  expect({ exit, stderr: hammer.stderr.join('') }).toEqual({ exit: { code: 0, signal: null }, stderr: '' });
  expect(hammer.finished?.hung).toEqual([]);
  const tallies = hammer.finished!.tallies;
  const others = Object.fromEntries(
    Object.entries(tallies).flatMap(([name, tally]) => (tally.otherCount > 0 ? [[name, tally.other]] : [])),
  );
  expect(others).toEqual({});
  // store_unavailable is quick: no call waited for the database to come back.
  const slow = Object.entries(tallies).filter(([, tally]) => tally.maxMs >= 3_000);
  expect(slow.map(([name, tally]) => `${name}: ${tally.maxMs} ms`)).toEqual([]);
  for (const [name, tally] of Object.entries(tallies)) expect(tally.ok, name).toBeGreaterThan(0);
  expect(sum(tallies, 'unavailable')).toBeGreaterThan(0);
  return tallies;
}

describe('the stores in a process of their own while PostgreSQL goes away', () => {
  let database: TestPostgres;

  beforeAll(async () => {
    database = await startTestPostgres();
  });
  afterAll(async () => {
    for (const { child } of hammers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await database?.close();
  });

  it(`stays alive through ${OUTAGES} restarts: every failure is store_unavailable, and every method works again after each start`, async () => {
    const hammer = await startHammer(database.url);
    const recoveries: number[] = [];
    for (let outage = 1; outage <= OUTAGES; outage += 1) {
      // Traffic in full flow, then the database goes away under it (connections cut mid-query and mid-transaction).
      await pause(500);
      const before = sum(hammer.latest, 'unavailable');
      await database.stop();
      await until(hammer, `outage ${outage}: calls fail`, 5_000, (t) => sum(t, 'unavailable') > before + 50);
      // Down for a while: every call in the meantime tries a new connection, and is refused.
      await pause(1_000);
      expectAlive(hammer);
      // It comes back and goes again at once, twice, as a database in a restart loop does: connections are cut
      // while the pool is making them (in the startup exchange, or just after it).
      for (const upMs of FLAPS) {
        await database.start();
        await pause(upMs);
        await database.stop();
        await pause(200);
        expectAlive(hammer);
      }
      await database.start();
      recoveries.push(await recovery(hammer, `outage ${outage}`));
    }
    await pause(500); // a while of normal service after the last outage
    const tallies = await finish(hammer);
    // eslint-disable-next-line no-console -- the figures of the run, for the record
    console.log(
      `restarts: ${sum(tallies, 'ok') + sum(tallies, 'unavailable')} store calls, ` +
        `${sum(tallies, 'unavailable')} store_unavailable, every method worked again ${recoveries.join(', ')} ms after each start`,
    );
  }, 90_000);

  it('stays alive when every new connection is cut the moment it is ready (the server shuts down just then)', async () => {
    // Between the client and PostgreSQL: passes everything through, except that while `cutting`, each new
    // connection's first ReadyForQuery reaches the client in one chunk with the FATAL 57P01 that a fast
    // shutdown sends, and the connection ends: the client's "connected" and "lost" in one tick.
    const proxy = await startCuttingProxy(new URL(database.url));
    try {
      // Without the circuit breaker, which would keep most calls from making a connection while they are cut.
      const hammer = await startHammer(proxy.url(database.url), { circuitBreaker: false });
      for (let round = 1; round <= 3; round += 1) {
        await pause(300);
        proxy.cutting = true;
        proxy.dropAll(); // the pool's connections are lost: every call now needs a new one
        await pause(1_000);
        expectAlive(hammer);
        proxy.cutting = false;
        await recovery(hammer, `round ${round}`);
      }
      const tallies = await finish(hammer);
      expect(proxy.cuts).toBeGreaterThan(0);
      // eslint-disable-next-line no-console -- the figures of the run, for the record
      console.log(
        `cut when ready: ${proxy.cuts} connections cut, ${sum(tallies, 'ok') + sum(tallies, 'unavailable')} store calls, ` +
          `${sum(tallies, 'unavailable')} store_unavailable`,
      );
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

/** The ErrorResponse of a backend terminated by a fast shutdown (`pg_ctl stop -m fast`). */
function adminShutdown(): Buffer {
  const fields = Buffer.concat([
    ...[
      ['S', 'FATAL'],
      ['V', 'FATAL'],
      ['C', '57P01'],
      ['M', 'terminating connection due to administrator command'],
    ].map(([type, value]) => Buffer.from(`${type}${value}\0`)),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}

interface CuttingProxy {
  url(databaseUrl: string): string;
  cutting: boolean;
  /** Connections cut so far. */
  readonly cuts: number;
  dropAll(): void;
  close(): Promise<void>;
}

async function startCuttingProxy(target: URL): Promise<CuttingProxy> {
  const sockets = new Set<Socket>();
  const state = { cutting: false, cuts: 0 };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    const cutThis = state.cutting;
    let pending = Buffer.alloc(0);
    let cut = false;
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      if (!cutThis || cut) {
        if (!cut) client.write(chunk);
        return;
      }
      // Passes whole messages (type, int32 length) on as they come, until the first ReadyForQuery ('Z').
      pending = Buffer.concat([pending, chunk]);
      let offset = 0;
      while (pending.length - offset >= 5) {
        const length = pending.readInt32BE(offset + 1);
        if (pending.length - offset < 1 + length) break;
        const type = String.fromCharCode(pending[offset]!);
        offset += 1 + length;
        if (type === 'Z') {
          cut = true;
          state.cuts += 1;
          client.end(Buffer.concat([pending.subarray(0, offset), adminShutdown()]));
          upstream.destroy();
          return;
        }
      }
      client.write(pending.subarray(0, offset));
      pending = pending.subarray(offset);
    });
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', drop).on('error', drop);
    upstream.on('close', drop).on('error', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url(databaseUrl) {
      const url = new URL(databaseUrl);
      url.port = String(port);
      return url.href;
    },
    get cutting() {
      return state.cutting;
    },
    set cutting(value) {
      state.cutting = value;
    },
    get cuts() {
      return state.cuts;
    },
    dropAll() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
