/**
 * The Fetch-API entries import nothing of Node: each is bundled as a Workers, Deno or edge bundler would, for a
 * neutral platform, with every dependency inside (@paykit/core, zod, oauth4webapi), and any import of a Node
 * built-in module (`node:fs`, or a bare `crypto`) fails the test, naming the file that imports it. What needs
 * Node lives behind the Node entries (`/node`, `/express`, `/files`).
 */
import { build, type Plugin } from 'esbuild';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const builtins = new Set(builtinModules);
const packageRoot = fileURLToPath(new URL('..', import.meta.url));

/** Bundles `entry` for a neutral platform; resolves with every Node built-in import as `importer -> module`. */
async function nodeImportsOf(entry: string): Promise<string[]> {
  const found: string[] = [];
  const refuseNode: Plugin = {
    name: 'refuse-node-builtins',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.replace(/^node:/, '');
        if (!args.path.startsWith('node:') && !builtins.has(bare) && !builtins.has(bare.split('/')[0]!)) {
          return undefined;
        }
        found.push(`${args.importer.slice(args.importer.indexOf('/packages/') + 1)} -> ${args.path}`);
        return { path: args.path, external: true };
      });
    },
  };
  await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    absWorkingDir: packageRoot,
    bundle: true,
    write: false,
    platform: 'neutral',
    format: 'esm',
    mainFields: ['module', 'main'],
    // As wrangler resolves packages for Workers.
    conditions: ['workerd', 'worker', 'browser'],
    logLevel: 'silent',
    plugins: [refuseNode],
  });
  return found;
}

describe('the Fetch-API entries, bundled for a neutral platform', () => {
  it('@paykit/server imports no node: module, directly or through its dependencies', async () => {
    expect(await nodeImportsOf('./index.ts')).toEqual([]);
  });

  it('@paykit/server/client imports none either', async () => {
    expect(await nodeImportsOf('./client/index.ts')).toEqual([]);
  });

  it('catches one when it is there: the file stores import node:fs', async () => {
    expect(await nodeImportsOf('./files.ts')).toEqual(
      expect.arrayContaining(['packages/server/src/handler/file-event-store.ts -> node:fs/promises']),
    );
  });
});
