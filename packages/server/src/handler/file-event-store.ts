/**
 * An {@link EventStore} that survives restarts of one process: the facts already acted on are kept in a file,
 * one JSON line each, so that a delivery retried after a restart (the API retries for hours) or a return link
 * reloaded next month does not run the merchant's hook again. Claims under way stay in memory: a process that
 * dies mid-hook loses its claim with it, and the redelivery is processed. For several processes, use
 * `createPostgresStores`.
 *
 * The file's first line says from when it remembers (`{"remembersFrom": <ms>}`): when it was created, moved past
 * the facts compaction drops beyond `maxEntries`. Each fact line is `{"fact": "...", "at": <ms>}`; a file written
 * before the horizon existed (bare JSON strings, no first line) remembers from its own creation time as the file
 * system tells it, or from when this version first opened it.
 */
import { isJsonObject, PaykitError } from '@paykit/core';
import { appendFile, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { startOfSecond, type ClaimResult, type EventStore } from './event-store.js';

/** Options of {@link FileEventStore}. */
export interface FileEventStoreOptions {
  /** The file (JSON lines). Created, with its folder and its horizon, on first use. */
  path: string;
  /**
   * Facts remembered. When the file is compacted (on load), the oldest beyond it are dropped and the store
   * remembers from just after the newest dropped one: return links and late webhooks of older payments are then
   * shown and answered, not acted on. Default 100,000.
   */
  maxEntries?: number;
}

/** What the file holds, read. */
interface Loaded {
  from: number;
  /** Each done fact and when it happened, oldest first. */
  done: Map<string, number>;
}

/** A durable {@link EventStore} for one process. */
export class FileEventStore implements EventStore {
  readonly #path: string;
  readonly #maxEntries: number;
  /** Claims under way, and when their fact happened. */
  readonly #processing = new Map<string, number>();
  #loaded: Promise<Loaded> | undefined;
  /** When this object was made: a file it creates remembers from then (it held every fact offered since). */
  readonly #madeAt = startOfSecond(Date.now());
  #writes: Promise<void> = Promise.resolve();

  constructor(options: FileEventStoreOptions) {
    this.#path = options.path;
    this.#maxEntries = options.maxEntries ?? 100_000;
    if (!Number.isInteger(this.#maxEntries) || this.#maxEntries < 1) {
      throw new PaykitError(
        'validation_failed',
        `FileEventStore: maxEntries must be a positive whole number, not ${String(this.#maxEntries)}`,
        { errors: [{ path: 'maxEntries', message: 'must be a positive whole number' }] },
      );
    }
  }

  async claim(fact: string, at?: number): Promise<ClaimResult> {
    const { done } = await this.#load();
    if (done.has(fact)) return false;
    if (this.#processing.has(fact)) return 'busy';
    this.#processing.set(fact, Math.max(Date.now(), at ?? -Infinity));
    return true;
  }

  async complete(fact: string): Promise<void> {
    const { done } = await this.#load();
    const at = this.#processing.get(fact) ?? Date.now();
    // Written before it counts as done: a crash between the two leaves the fact claimable, never lost.
    await this.#queue(() => appendFile(this.#path, `${JSON.stringify({ fact, at })}\n`, { mode: 0o600 }));
    done.set(fact, at);
    this.#processing.delete(fact);
  }

  async release(fact: string): Promise<void> {
    this.#processing.delete(fact);
  }

  async remembersFrom(): Promise<number> {
    return (await this.#load()).from;
  }

  #queue(write: () => Promise<void>): Promise<void> {
    const next = this.#writes.then(write);
    this.#writes = next.catch(() => undefined);
    return next;
  }

  #load(): Promise<Loaded> {
    this.#loaded ??= this.#read();
    return this.#loaded;
  }

  async #read(): Promise<Loaded> {
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) throw error;
      const loaded = { from: this.#madeAt, done: new Map<string, number>() };
      await this.#rewrite(loaded);
      return loaded;
    }
    const lines = text.split('\n').filter((line) => line.length > 0);
    let from: number | undefined;
    let oldFormat = false;
    const done = new Map<string, number>();
    for (const [index, line] of lines.entries()) {
      // A line cut short by a crash mid-append is skipped: its fact was not acknowledged to the API.
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof value === 'string') {
        oldFormat = true;
        // A fact written twice keeps its first place: it became a fact then.
        if (!done.has(value)) done.set(value, 0);
      } else if (isJsonObject(value) && typeof value.fact === 'string' && typeof value.at === 'number') {
        if (!done.has(value.fact)) done.set(value.fact, value.at);
      } else if (index === 0 && isJsonObject(value) && typeof value.remembersFrom === 'number') {
        from = value.remembersFrom;
      }
    }
    // Rewritten when it is not exactly the horizon and one line per fact (duplicates, cut lines, the old format).
    let compact = from === undefined || oldFormat || lines.length !== done.size + 1;
    from ??= await this.#createdAt();
    for (const [fact, at] of done) {
      if (done.size <= this.#maxEntries) break;
      done.delete(fact);
      // A fact of the old format has no time: the store forgets up to now, to be safe.
      from = Math.max(from, (at === 0 ? Date.now() : at) + 1);
      compact = true;
    }
    const loaded = { from, done };
    if (compact) await this.#rewrite(loaded);
    return loaded;
  }

  /** When a file of the old format (no horizon line) was created, as far as the file system tells. */
  async #createdAt(): Promise<number> {
    const { birthtimeMs, mtimeMs } = await stat(this.#path);
    return startOfSecond(birthtimeMs > 0 ? birthtimeMs : Math.min(mtimeMs, Date.now()));
  }

  /** The whole file anew (the horizon, then the facts), written aside and then renamed over it. */
  async #rewrite({ from, done }: Loaded): Promise<void> {
    const temporary = `${this.#path}.${process.pid}.tmp`;
    // Its folder too, on first use: a path such as `.paykit/events.jsonl` in a fresh checkout.
    await mkdir(dirname(this.#path), { recursive: true, mode: 0o700 });
    const lines = [
      JSON.stringify({ remembersFrom: from }),
      ...[...done].map(([fact, at]) => JSON.stringify({ fact, at })),
    ];
    await writeFile(temporary, `${lines.join('\n')}\n`, { mode: 0o600 });
    await rename(temporary, this.#path);
  }
}
