/**
 * An {@link EventStore} that survives restarts of one process: the webhook facts already acted on are kept in
 * a file, one JSON line each, so that a delivery retried after a restart (the API retries for hours) does not
 * run the merchant's hook again. Claims under way stay in memory: a process that dies mid-hook loses its
 * claim with it, and the redelivery is processed. For several processes, use `createPostgresStores`.
 */
import { appendFile, readFile, rename, writeFile } from 'node:fs/promises';
import type { ClaimResult, EventStore } from './event-store.js';

/** Options of {@link FileEventStore}. */
export interface FileEventStoreOptions {
  /** The file (JSON lines). Created on the first completed fact. */
  path: string;
  /** Facts remembered; the oldest are forgotten beyond it when the file is compacted. Default 100,000. */
  maxEntries?: number;
}

/** A durable {@link EventStore} for one process. */
export class FileEventStore implements EventStore {
  readonly #path: string;
  readonly #maxEntries: number;
  readonly #processing = new Set<string>();
  #done: Promise<Set<string>> | undefined;
  #writes: Promise<void> = Promise.resolve();

  constructor(options: FileEventStoreOptions) {
    this.#path = options.path;
    this.#maxEntries = options.maxEntries ?? 100_000;
  }

  async claim(eventId: string): Promise<ClaimResult> {
    const done = await this.#load();
    if (done.has(eventId)) return false;
    if (this.#processing.has(eventId)) return 'busy';
    this.#processing.add(eventId);
    return true;
  }

  async complete(eventId: string): Promise<void> {
    const done = await this.#load();
    // Written before it counts as done: a crash between the two leaves the fact claimable, never lost.
    await this.#queue(() => appendFile(this.#path, `${JSON.stringify(eventId)}\n`, { mode: 0o600 }));
    done.add(eventId);
    this.#processing.delete(eventId);
  }

  async release(eventId: string): Promise<void> {
    this.#processing.delete(eventId);
  }

  #queue(write: () => Promise<void>): Promise<void> {
    const next = this.#writes.then(write);
    this.#writes = next.catch(() => undefined);
    return next;
  }

  #load(): Promise<Set<string>> {
    this.#done ??= this.#read();
    return this.#done;
  }

  async #read(): Promise<Set<string>> {
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return new Set();
      throw error;
    }
    const lines = text.split('\n').filter((line) => line.length > 0);
    const done = new Set<string>();
    for (const line of lines) {
      // A line cut short by a crash mid-append is skipped: its fact was not acknowledged to the API.
      try {
        const id: unknown = JSON.parse(line);
        if (typeof id === 'string') done.add(id);
      } catch {
        // skipped
      }
    }
    const kept = [...done].slice(-this.#maxEntries);
    if (kept.length < lines.length) {
      // Compacted on load (duplicates, cut lines, the oldest beyond maxEntries), written aside then renamed.
      const temporary = `${this.#path}.${process.pid}.tmp`;
      await writeFile(temporary, kept.map((id) => `${JSON.stringify(id)}\n`).join(''), { mode: 0o600 });
      await rename(temporary, this.#path);
    }
    return new Set(kept);
  }
}
