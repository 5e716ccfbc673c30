/**
 * `pnpm pack:local [folder]`: the packages as npm would publish them, for an application outside this repository
 * before they are on the registry. Writes the tarball of every public package (those not `private`) into one
 * folder (default `.paykit-packages/`) and prints the one `npm install` line that installs them together: given
 * in one command, each package's dependency on another (`@paykit/server` on `@paykit/core@^0.1.0`) is met by
 * the tarball beside it, not looked up on the registry, where it is not yet. Run after `pnpm build` (the
 * `pack:local` script builds first).
 *
 * The runtime matrix (test/runtimes/matrix.ts), the consumer test (test/consumer/consumer.test.ts) and
 * `pnpm check:packages` pack the same way, once per build, through {@link packOnce}.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A package of the workspace that is published: its name, its folder, and where its tarball went. */
export interface PackedPackage {
  name: string;
  version: string;
  folder: string;
  tarball: string;
}

/** The public packages (not `private`), by folder name under packages/, in a stable order. */
export function publicPackages(): { name: string; version: string; folder: string }[] {
  return readdirSync(join(ROOT, 'packages'))
    .sort()
    .flatMap((dir) => {
      const file = join(ROOT, 'packages', dir, 'package.json');
      if (!existsSync(file)) return [];
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string; private?: boolean };
      return manifest.private
        ? []
        : [{ name: manifest.name, version: manifest.version, folder: join(ROOT, 'packages', dir) }];
    });
}

/**
 * Packs the public packages (or those of `only`, by name) into `folder` with `pnpm pack`, which writes each
 * `workspace:` range as the version it stands for; refuses a package whose `dist/` is not built.
 */
export async function packPublicPackages(folder: string, only?: readonly string[]): Promise<PackedPackage[]> {
  await mkdir(folder, { recursive: true });
  const packed: PackedPackage[] = [];
  for (const pkg of publicPackages()) {
    if (only && !only.includes(pkg.name)) continue;
    if (!existsSync(join(pkg.folder, 'dist')))
      throw new Error(`${pkg.name}: ${join(pkg.folder, 'dist')} is missing: run \`pnpm build\` first`);
    const { stdout } = await run('pnpm', ['pack', '--pack-destination', folder], { cwd: pkg.folder });
    packed.push({ ...pkg, tarball: stdout.trim().split('\n').at(-1)! });
  }
  return packed;
}

/** Where {@link packOnce} keeps each build's tarballs, under a folder named by the build's fingerprint. */
const PACKED_ONCE = join(ROOT, 'node_modules', '.cache', 'paykit-packed');

/**
 * What would be packed, in a few hex digits: each public package's manifest and the path, size and modification
 * time of every file under its `dist/`. A new build (or an edited manifest) makes a new fingerprint.
 */
function buildFingerprint(): string {
  const hash = createHash('sha256');
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const { size, mtimeMs } = statSync(path);
        hash.update(`${relative(ROOT, path)}\0${size}\0${mtimeMs}\n`);
      }
    }
  };
  for (const pkg of publicPackages()) {
    hash.update(readFileSync(join(pkg.folder, 'package.json')));
    if (existsSync(join(pkg.folder, 'dist'))) walk(join(pkg.folder, 'dist'));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The public packages packed once per build (issue 34 item 3): the first caller of a run packs them (as
 * {@link packPublicPackages} does) into `node_modules/.cache/paykit-packed/<fingerprint>/`, every later caller, in
 * any process, gets those tarballs until the next build. Packed into a folder of its own and then renamed into
 * place, so that two processes packing at once leave one complete set, never a half-written one. Treat the
 * tarballs as read-only: copy one before changing it.
 */
export async function packOnce(): Promise<PackedPackage[]> {
  const folder = join(PACKED_ONCE, buildFingerprint());
  const list = join(folder, 'packed.json');
  if (existsSync(list)) return JSON.parse(await readFile(list, 'utf8')) as PackedPackage[];
  const draft = `${folder}.${process.pid}-${Date.now()}`;
  const packed = await packPublicPackages(draft);
  const final = packed.map((pkg) => ({ ...pkg, tarball: join(folder, relative(draft, pkg.tarball)) }));
  await writeFile(join(draft, 'packed.json'), `${JSON.stringify(final, null, 2)}\n`);
  try {
    await rename(draft, folder);
  } catch {
    // Another process packed the same build first: its set is as good as this one.
    await rm(draft, { recursive: true, force: true });
  }
  return JSON.parse(await readFile(list, 'utf8')) as PackedPackage[];
}

/** The one command that installs `packed` together (paths with spaces quoted). */
export function installLine(packed: readonly PackedPackage[]): string {
  const quote = (path: string) => (/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`);
  return `npm install ${packed.map((pkg) => quote(pkg.tarball)).join(' ')}`;
}

const runAsCommand = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);

if (runAsCommand && process.argv[2] === '--once') {
  // For scripts/check-packages.sh: each public package of this build, `name tarball`, one per line.
  for (const pkg of await packOnce()) console.log(`${pkg.name} ${pkg.tarball}`);
} else if (runAsCommand) {
  const folder = resolve(process.argv[2] ?? join(ROOT, '.paykit-packages'));
  try {
    const packed = await packPublicPackages(folder);
    console.log(`paykit: ${packed.length} packages packed into ${folder}:`);
    for (const pkg of packed) console.log(`  ${pkg.name}@${pkg.version}`);
    console.log('\nIn your application, install them together, in one command (take the ones you use, and');
    console.log('@paykit/core with any of them, since they depend on it):\n');
    console.log(`  ${installLine(packed)}\n`);
    console.log('Once they are on the registry: npm install @paykit/server @paykit/elements (and @paykit/sandbox).');
  } catch (error) {
    console.error(`paykit: pack:local failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
