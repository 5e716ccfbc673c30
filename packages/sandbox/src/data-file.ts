/**
 * The data file of `startSandbox({ dataFile })` / `pnpm sandbox --data <file>`: read once at start, then written
 * back after changes, at most every 200 ms, and once more on `close()`. Each write goes to `<file>.<pid>.tmp`
 * (mode 0600: the file holds the businesses' API keys) and is renamed over the file, so a reader, or a sandbox
 * killed mid-write, sees either the old state or the new one, never half of each.
 */
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SandboxContext } from './context.js';
import { decodeSnapshot, restoreSandbox, snapshotSandbox } from './persistence.js';

/** What went wrong with a data file; `code` is stable, `message` names the file and what to do. */
export type SandboxDataFileErrorCode = 'data_file_unreadable' | 'data_file_invalid' | 'data_file_unwritable';

/** A data file the sandbox cannot use: thrown by `startSandbox` (and `close()` for a failed last write). */
export class SandboxDataFileError extends Error {
  override readonly name = 'SandboxDataFileError';

  constructor(
    readonly code: SandboxDataFileErrorCode,
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The least time between two writes. */
const SAVE_INTERVAL_MS = 200;

/**
 * Loads the state of `file` into the sandbox when the file exists. Returns whether it did. A missing file is a
 * first start; anything else unusable throws {@link SandboxDataFileError}.
 */
export async function loadDataFile(
  context: Pick<SandboxContext, 'state' | 'oauth' | 'clocks'>,
  file: string,
): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (systemCode(error) === 'ENOENT') return false;
    throw new SandboxDataFileError(
      'data_file_unreadable',
      file,
      `Cannot read the sandbox data file ${file} (${systemCode(error) ?? String(error)}). ` +
        'Check that it is a file this user may read, or pass another data file.',
      { cause: error },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // JSON.parse throws a SyntaxError.
    throw invalid(file, `is not valid JSON (${(error as SyntaxError).message})`, error);
  }
  const decoded = decodeSnapshot(value);
  if (!decoded.ok) throw invalid(file, decoded.problem);
  restoreSandbox(context, decoded.snapshot);
  return true;
}

/** The system's code of a failed file operation (`ENOENT`, `EACCES`), if it has one. */
function systemCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

function invalid(file: string, problem: string, cause?: unknown): SandboxDataFileError {
  return new SandboxDataFileError(
    'data_file_invalid',
    file,
    `The sandbox data file ${file} ${problem}. Delete it to start from the seeded state ` +
      '(the sandbox then writes a new one), or pass another data file.',
    { cause },
  );
}

/**
 * Writes the sandbox's state to its file after changes: {@link changed} marks the state dirty, and a write
 * follows at once when the last one is 200 ms old, or when it is. One write at a time; {@link close} writes
 * what is left.
 */
export class DataFileWriter {
  #dirty = false;
  #timer: NodeJS.Timeout | undefined;
  /** The write under way; it never rejects (it answers the error). */
  #writing: Promise<SandboxDataFileError | undefined> | undefined;
  #lastWriteAt = 0;
  #failing = false;
  #closed = false;

  constructor(
    readonly file: string,
    private readonly context: Pick<SandboxContext, 'state' | 'oauth' | 'clocks'>,
    /** Told when a background write fails (once, until a write succeeds again); the next change tries again. */
    private readonly onError: (error: SandboxDataFileError) => void,
  ) {}

  /** Creates the file's folder and writes the state now: at start, so that a path that cannot be written fails then. */
  async writeNow(): Promise<void> {
    try {
      await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
    } catch (error) {
      throw this.#unwritable(error);
    }
    await this.#flush();
  }

  /** The state changed: a write will follow within 200 ms. */
  changed(): void {
    if (this.#closed) return;
    this.#dirty = true;
    this.#schedule();
  }

  /** Stops the timer and writes any change not yet written. Rejects when that last write fails. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#writing;
    if (this.#dirty) await this.#flush();
  }

  #schedule(): void {
    if (this.#timer || this.#writing) return; // the pending write, or the end of the one under way, takes it
    const wait = Math.max(0, this.#lastWriteAt + SAVE_INTERVAL_MS - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush().catch((error: unknown) => {
        // #flush rejects only with what #write threw, a SandboxDataFileError (a snapshot is plain data).
        if (!this.#failing) this.onError(error as SandboxDataFileError);
        this.#failing = true;
      });
    }, wait);
    this.#timer.unref();
  }

  /** Takes the snapshot now (synchronously: one consistent moment), then writes it. */
  async #flush(): Promise<void> {
    this.#dirty = false;
    const text = JSON.stringify(snapshotSandbox(this.context));
    const writing = this.#write(text).then(
      () => undefined,
      (error: unknown) => {
        this.#dirty = true; // not on disk: the next change, or close(), tries again
        return error as SandboxDataFileError; // #write throws nothing else
      },
    );
    this.#writing = writing;
    const error = await writing;
    this.#writing = undefined;
    this.#lastWriteAt = Date.now();
    if (error) throw error;
    this.#failing = false;
    if (this.#dirty && !this.#closed) this.#schedule(); // changed while it was being written
  }

  async #write(text: string): Promise<void> {
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      const handle = await open(tmp, 'w', 0o600);
      try {
        await handle.chmod(0o600); // `open`'s mode only applies when it creates the file
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, this.file);
    } catch (error) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw this.#unwritable(error);
    }
  }

  #unwritable(error: unknown): SandboxDataFileError {
    return new SandboxDataFileError(
      'data_file_unwritable',
      this.file,
      `Cannot write the sandbox data file ${this.file} (${systemCode(error) ?? String(error)}). ` +
        'Check that this user may write to its folder, or pass another data file.',
      { cause: error },
    );
  }
}
