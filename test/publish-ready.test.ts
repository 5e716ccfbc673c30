/**
 * The packages are ready to publish (issue 26, item 1): one version for all, kept together by changesets (`fixed`),
 * public access and npm provenance in `publishConfig`, the repository and folder each tarball comes from, and
 * `pnpm publish -r --dry-run` publishing exactly the public packages, each with its built files and README and
 * without tests. Needs `pnpm build` first (as `npm test` runs it); publishes nothing.
 */
import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { publicPackages } from '../scripts/pack-local.js';

const ROOT = new URL('../', import.meta.url).pathname;
const run = promisify(execFile);
const manifest = async (folder: string) =>
  JSON.parse(await readFile(`${folder}/package.json`, 'utf8')) as Record<string, any>;

describe('publishing', () => {
  const packages = publicPackages();

  it('the public packages share one version, which changesets keeps together', async () => {
    expect(packages.map((p) => p.name)).toEqual([
      '@paykit/core',
      '@paykit/elements',
      '@paykit/sandbox',
      '@paykit/server',
    ]);
    expect(new Set(packages.map((p) => p.version)).size).toBe(1);
    const config = JSON.parse(await readFile(`${ROOT}.changeset/config.json`, 'utf8')) as Record<string, any>;
    expect((config.fixed as string[][]).map((group) => [...group].sort())).toEqual([packages.map((p) => p.name)]);
    expect(config.access).toBe('public');
  });

  it.each(packages.map((p) => [p.name, p.folder] as const))(
    '%s has what a provenance publish needs',
    async (_, folder) => {
      const pkg = await manifest(folder);
      expect(pkg.publishConfig).toMatchObject({ access: 'public', provenance: true });
      expect(pkg.repository).toMatchObject({ type: 'git', directory: relative(ROOT, folder) });
      expect(pkg.repository.url).toMatch(/^git\+https:\/\/github\.com\//);
      expect(pkg.license).toBe('MIT');
      expect(typeof pkg.description).toBe('string');
      expect(pkg.files).toContain('dist');
    },
  );

  it(
    'pnpm publish -r --dry-run publishes exactly the public packages, built, with READMEs and no tests',
    { timeout: 120_000 },
    async () => {
      const summary = `${ROOT}pnpm-publish-summary.json`;
      try {
        await run('pnpm', ['publish', '-r', '--dry-run', '--no-git-checks', '--report-summary'], { cwd: ROOT });
        const { publishedPackages } = JSON.parse(await readFile(summary, 'utf8')) as {
          publishedPackages: { name: string; version: string; files: { path: string }[] }[];
        };
        expect(publishedPackages.map((p) => p.name).sort()).toEqual(packages.map((p) => p.name));
        for (const published of publishedPackages) {
          const files = published.files.map((f) => f.path);
          expect(files, published.name).toContain('dist/index.js');
          expect(files, published.name).toContain('README.md');
          expect(
            files.filter((f) => /\.test\.ts$/.test(f)),
            published.name,
          ).toEqual([]);
        }
      } finally {
        await rm(summary, { force: true });
      }
    },
  );
});
