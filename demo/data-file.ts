/**
 * The demo's own JSON files in its data folder (`startDemo({ dataDir })`): `platform.json` and `orders.json`.
 * (The sandbox's `sandbox.json` is the sandbox's business.) Each is read once at start and rewritten whole after
 * each change, to `<file>.<pid>.tmp` with mode 0600 renamed over the file: `platform.json` holds a client secret.
 */
import { isJsonObject } from '@paykit/core';
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';

/** A demo data file that cannot be used; the message names it and says what to do. */
export class DemoDataFileError extends Error {
  override readonly name = 'DemoDataFileError';

  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Creates the data folder (mode 0700) if it is missing. */
export async function makeDataDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/**
 * Reads a data file: `undefined` when there is none yet; {@link DemoDataFileError} when it is not JSON or not
 * what `check` expects (another version of the demo wrote it, or it was edited by hand).
 */
export async function readDataFile<T>(file: string, check: (value: unknown) => value is T): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (systemCode(error) === 'ENOENT') return undefined;
    throw new DemoDataFileError(file, `Cannot read the demo data file ${file}: ${messageOf(error)}`, {
      cause: error,
    });
  }
  const advice = 'Delete it to start this part of the demo afresh, or set PAYKIT_DEMO_DATA to another folder.';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DemoDataFileError(file, `The demo data file ${file} is not valid JSON. ${advice}`, { cause: error });
  }
  if (!check(value)) {
    throw new DemoDataFileError(file, `The demo data file ${file} is not one this demo wrote (version 1). ${advice}`);
  }
  return value;
}

/** True when `value` is a data file's object of version 1 (the only one so far), its other fields unread. */
export function isVersionOne(value: unknown): value is Record<string, unknown> & { version: 1 } {
  return isJsonObject(value) && value.version === 1;
}

/** The system's code of a failed file operation (`ENOENT`, `EEXIST`), if it has one. */
function systemCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** An error's message, or what was thrown as text. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Writes a file's latest value, one write at a time: values saved while a write is under way are coalesced
 * into one more write of the last of them. A failed write is logged; the next save tries again.
 */
export class JsonFileWriter {
  #next: { value: unknown } | undefined;
  #writing: Promise<void> | undefined;

  constructor(readonly file: string) {}

  /** Writes `value` soon (it is serialized when its turn comes: pass a fresh object, not one that changes). */
  save(value: unknown): void {
    this.#next = { value };
    this.#writing ??= this.#drain();
  }

  /** Resolves once every value saved so far is written (or failed). */
  async flush(): Promise<void> {
    await this.#writing;
  }

  async #drain(): Promise<void> {
    while (this.#next) {
      const { value } = this.#next;
      this.#next = undefined;
      try {
        await writeAtomically(this.file, `${JSON.stringify(value, null, 2)}\n`);
      } catch (error) {
        console.error(`[paykit demo] cannot write ${this.file}: ${messageOf(error)}`);
      }
    }
    this.#writing = undefined;
  }
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const handle = await open(tmp, 'w', 0o600);
    try {
      await handle.chmod(0o600);
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * The key that encrypts the platform's stored merchant credentials: made on the first start (32 random bytes,
 * hex, mode 0600) and read afterwards. A demo's shortcut: in production the key comes from a secret manager,
 * never from a file beside the data it protects.
 */
export async function readOrCreateKey(file: string): Promise<string> {
  try {
    await writeFile(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if (systemCode(error) !== 'EEXIST') {
      throw new DemoDataFileError(file, `Cannot create the demo key file ${file}: ${messageOf(error)}`, {
        cause: error,
      });
    }
  }
  const key = (await readFile(file, 'utf8')).trim();
  if (!/^[0-9a-f]{64}$/.test(key)) {
    throw new DemoDataFileError(
      file,
      `The demo key file ${file} is not 64 hex characters. Delete it and connections.json to start the platform afresh.`,
    );
  }
  return key;
}
