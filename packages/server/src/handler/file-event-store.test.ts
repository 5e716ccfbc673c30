/**
 * The file-backed webhook claims: facts acted on survive a restart (a new store on the same file), claims
 * under way do not, a torn last line is skipped, and the file is compacted on load.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryEventStore } from './event-store.js';
import { FileEventStore } from './file-event-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-events-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('FileEventStore', () => {
  it('remembers completed facts across a restart, and forgets claims under way', async () => {
    const path = join(dir, 'events.jsonl');
    const before = new FileEventStore({ path });
    expect(await before.claim('payment_request.completed:pr_1')).toBe(true);
    expect(await before.claim('payment_request.completed:pr_1')).toBe('busy');
    await before.complete('payment_request.completed:pr_1');
    expect(await before.claim('payment_request.completed:pr_1')).toBe(false);
    expect(await before.claim('payment_request.completed:pr_2')).toBe(true);

    const after = new FileEventStore({ path });
    expect(await after.claim('payment_request.completed:pr_1')).toBe(false);
    // pr_2 was being processed when the "process" stopped: its redelivery is processed.
    expect(await after.claim('payment_request.completed:pr_2')).toBe(true);
  });

  it('gives a released claim back', async () => {
    const store = new FileEventStore({ path: join(dir, 'events.jsonl') });
    expect(await store.claim('a')).toBe(true);
    await store.release('a');
    expect(await store.claim('a')).toBe(true);
  });

  it('lets one of fifty concurrent claims of a fact win', async () => {
    const store = new FileEventStore({ path: join(dir, 'events.jsonl') });
    const claims = await Promise.all(Array.from({ length: 50 }, () => store.claim('fact')));
    expect(claims.filter((claim) => claim === true)).toHaveLength(1);
  });

  it('skips a line torn by a crash, and compacts the file to the newest maxEntries on load', async () => {
    const path = join(dir, 'events.jsonl');
    await writeFile(path, '"a"\n"b"\n"a"\n"c"\n"d"\n{"torn');
    const before = Date.now();
    const store = new FileEventStore({ path, maxEntries: 3 });
    expect(await store.claim('a')).toBe(true);
    expect(await store.claim('b')).toBe(false);
    // The old format (bare strings, no horizon line) is rewritten in the new one. 'a' was dropped with no time of
    // its own, so the store no longer answers for anything before the load.
    const lines = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(lines.slice(1)).toEqual([
      { fact: 'b', at: 0 },
      { fact: 'c', at: 0 },
      { fact: 'd', at: 0 },
    ]);
    expect(await store.remembersFrom()).toBeGreaterThan(before);
    expect(lines[0]).toEqual({ remembersFrom: await store.remembersFrom() });
  });

  it('remembers from its creation, across restarts, and past the facts compaction drops', async () => {
    const path = join(dir, 'events.jsonl');
    const first = new FileEventStore({ path, maxEntries: 2 });
    const created = await first.remembersFrom();
    expect(created).toBeLessThanOrEqual(Date.now());
    expect(created).toBeGreaterThan(Date.now() - 2_000);
    const paidAt = Date.now() + 60_000; // the service's clock ahead of ours: its time is the one kept
    for (const fact of ['f1', 'f2', 'f3']) {
      expect(await first.claim(fact, fact === 'f1' ? paidAt : undefined)).toBe(true);
      await first.complete(fact);
    }
    // A restart: the same horizon, until compaction drops f1 (beyond maxEntries) and moves it past f1's time.
    const second = new FileEventStore({ path, maxEntries: 2 });
    expect(await second.remembersFrom()).toBe(paidAt + 1);
    expect(await second.claim('f2')).toBe(false);
    const third = new FileEventStore({ path, maxEntries: 2 });
    expect(await third.remembersFrom()).toBe(paidAt + 1);
  });

  it('remembers from when it was made, though it creates its file only at first use', async () => {
    const made = Date.now();
    const store = new FileEventStore({ path: join(dir, 'events.jsonl') });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await store.remembersFrom()).toBeLessThanOrEqual(made);
    expect(await store.remembersFrom()).toBeGreaterThan(made - 1_000);
  });

  it('makes its folder on first use', async () => {
    const store = new FileEventStore({ path: join(dir, 'not', 'yet', 'events.jsonl') });
    expect(await store.claim('a')).toBe(true);
    await store.complete('a');
    expect((await readFile(join(dir, 'not', 'yet', 'events.jsonl'), 'utf8')).split('\n')[1]).toMatch(/"fact":"a"/);
  });

  it('refuses a maxEntries that is not a positive whole number, naming it', () => {
    for (const maxEntries of [0, -1, 1.5, Number.NaN]) {
      expect(() => new FileEventStore({ path: join(dir, 'events.jsonl'), maxEntries })).toThrow(
        expect.objectContaining({
          code: 'validation_failed',
          errors: [{ path: 'maxEntries', message: expect.any(String) }],
        }),
      );
      expect(() => new MemoryEventStore(maxEntries)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    }
  });
});
