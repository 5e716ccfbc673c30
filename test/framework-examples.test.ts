/**
 * The docs as they are run (issue 35 item 4): every framework snippet of the server README (Express, Next.js,
 * Workers, Bun, Deno, Hono) is the code of an example file in packages/server/examples, shown in TypeScript and,
 * beside it, in JavaScript (examples/js, the TypeScript with its types taken out by scripts/examples-js.ts). The
 * TypeScript files are type-checked by the server's `typecheck` and run by the runtime matrix (Hono, Bun, Deno,
 * the Worker, the Next.js app) and the consumer test (Express); the consumer test runs the JavaScript of Express and
 * Hono on the host's Node, from the tarballs. This test holds the three together: a README block that is not its
 * file, or a JavaScript file that is not its TypeScript's, fails here with the file's name.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { EXAMPLES, writeExamples } from '../scripts/examples-js.js';

const SERVER = new URL('../packages/server/', import.meta.url);
const readme = await readFile(new URL('README.md', SERVER), 'utf8');

/** Each README block marked `<!-- example: <file> -->`, with its file and the section it is in. */
const marked = [...readme.matchAll(/<!-- example: (\S+) -->\n```(\w+)\n([\s\S]*?)^```$/gm)].map((match) => ({
  file: match[1]!,
  lang: match[2]!,
  code: match[3]!,
  section: [...readme.slice(0, match.index).matchAll(/^#{2,3} (.+)$/gm)].at(-1)?.[1],
}));

/** The README's framework sections and the examples each must show. */
const SECTIONS: Record<string, readonly string[]> = {
  Express: ['express'],
  'Next.js (App Router)': ['next/app/paykit/[...path]/route'],
  'The shop the runtime examples share': ['shop'],
  'Cloudflare Workers': ['worker'],
  'Bun and Deno': ['bun', 'deno'],
  Hono: ['hono'],
};

describe('the framework examples of the server README', () => {
  it('each JavaScript example is its TypeScript with the types taken out (tsx scripts/examples-js.ts)', async () => {
    expect(await writeExamples(true)).toEqual([]);
  });

  it.each(marked.map((block) => [block.file, block] as const))(
    'the README block of %s is that file',
    async (file, block) => {
      expect(block.lang).toBe(file.endsWith('.js') ? 'js' : 'ts');
      expect(block.code).toBe(await readFile(new URL(file, SERVER), 'utf8'));
    },
  );

  it.each(Object.entries(SECTIONS))('"%s" shows its examples in TypeScript and in JavaScript', (section, names) => {
    const files = marked.filter((block) => block.section === section).map((block) => block.file);
    expect(files).toEqual(names.flatMap((name) => [`examples/${name}.ts`, `examples/js/${name}.js`]));
  });

  it('every example with a JavaScript twin is in the README', () => {
    const shown = new Set(marked.map((block) => block.file));
    for (const { ts, js } of EXAMPLES) {
      expect(shown, ts).toContain(`examples/${ts}`);
      expect(shown, js).toContain(`examples/${js}`);
    }
  });

  it('each snippet reads publicOrigin from the environment and says what to set locally', () => {
    for (const block of marked.filter((b) => b.lang === 'ts')) {
      expect(block.code, block.file).toMatch(/PUBLIC_ORIGIN/);
      // A comment giving the local address to set (or the default the code falls back to).
      expect(block.code, block.file).toMatch(/(?:\/\/|\*)[^\n]*(?:127\.0\.0\.1|localhost):\d+/);
    }
  });
});
