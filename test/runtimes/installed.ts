/**
 * Where `bash scripts/bootstrap.sh --runtimes` put the runtimes of runtimes.json: for the matrix and the bench.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One runtime of runtimes.json. */
export interface RuntimeEntry {
  name: string;
  label: string;
  package: string;
  version: string;
  /** The executable, inside the runtime's folder. */
  bin: string;
  compatibilityDate?: string;
}

/** The runtimes' cache folder: $PAYKIT_RUNTIMES_DIR, else ~/.cache/paykit/runtimes (as bootstrap.sh has it). */
export function runtimesCache(): string {
  return (
    process.env.PAYKIT_RUNTIMES_DIR ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'paykit', 'runtimes')
  );
}

/** Every runtime of runtimes.json. */
export function runtimeEntries(): RuntimeEntry[] {
  const file = fileURLToPath(new URL('runtimes.json', import.meta.url));
  return (JSON.parse(readFileSync(file, 'utf8')) as { runtimes: RuntimeEntry[] }).runtimes;
}

/** The folder a runtime is installed in. */
export function runtimeFolder(entry: RuntimeEntry): string {
  return join(runtimesCache(), `${entry.package}@${entry.version}`);
}

/** A runtime's executable; throws, naming the runtime and what to run, when it is not installed. */
export function installedBinary(entry: RuntimeEntry): string {
  const folder = runtimeFolder(entry);
  const bin = join(folder, entry.bin);
  if (!existsSync(join(folder, '.installed')) || !existsSync(bin)) {
    throw new Error(
      `${entry.label} (${entry.package}@${entry.version}) is not installed in ${folder}: run \`bash scripts/bootstrap.sh --runtimes\` (npm test does)`,
    );
  }
  return bin;
}

/** The entry named `name` (`node24`, `bun`, ...); throws when runtimes.json has none. */
export function runtimeEntry(name: string): RuntimeEntry {
  const entry = runtimeEntries().find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`runtimes.json has no runtime "${name}"`);
  return entry;
}
