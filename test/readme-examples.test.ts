/**
 * The code in each package's README is what a developer copies first, so it must compile against the real
 * packages: every `ts`/`tsx` block is type-checked as a file of its package (names the snippet leaves to the
 * reader are declared, one list per README), and the self-contained ones are run.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import ts from 'typescript';

const ROOT = new URL('../', import.meta.url);

/** The packages whose READMEs hold snippets. Each snippet is complete: it declares what it uses (a reader pastes it). */
const PACKAGES = ['core', 'sandbox', 'server', 'elements'] as const;

/** Blocks that need nothing running but themselves are run too, and what they log is checked. */
const RUNNABLE: Record<string, (logs: unknown[][]) => void> = {
  'core#0': (logs) => {
    expect(logs[0]).toEqual([{ amount: 12.5, currency: 'SGD' }]);
    expect(logs[1]?.[0]).toBe('validation_failed');
    expect(logs[1]?.[1]).toEqual([expect.objectContaining({ path: 'amount' })]);
  },
  'sandbox#0': (logs) => {
    expect(new URL(String(logs[0]?.[0])).hostname).toBe('127.0.0.1');
  },
  // Express in front of the handler, against a sandbox it starts: a page of the shop starts a checkout, a page of
  // another site is refused.
  'server#2': (logs) => {
    expect(logs).toEqual([
      [201, 'pending', true],
      [403, 'cross_site_request'],
    ]);
  },
};

interface Snippet {
  name: string;
  pkg: string;
  lang: 'ts' | 'tsx';
  code: string;
  /**
   * The example file the block shows (`<!-- example: examples/hono.ts -->` above it): that file is type-checked
   * by its package's `typecheck` and run by the runtime matrix, and test/framework-examples.test.ts holds the
   * block to it, so it is not compiled again here.
   */
  example: string | undefined;
}

async function snippets(): Promise<Snippet[]> {
  const found: Snippet[] = [];
  for (const pkg of PACKAGES) {
    const readme = await readFile(new URL(`packages/${pkg}/README.md`, ROOT), 'utf8');
    const blocks = [...readme.matchAll(/(?:<!-- example: (\S+) -->\n)?^```(tsx?)\n([\s\S]*?)^```/gm)];
    blocks.forEach(([, example, lang, code], index) =>
      found.push({ name: `${pkg}#${index}`, pkg, lang: lang as 'ts' | 'tsx', code: code!, example }),
    );
  }
  return found;
}

const base = ts.parseJsonConfigFileContent(
  ts.readConfigFile(new URL('tsconfig.base.json', ROOT).pathname, ts.sys.readFile).config,
  ts.sys,
  ROOT.pathname,
).options;

/**
 * Type errors of every snippet, each compiled as `packages/<pkg>/readme-example-<n>.<lang>` (in memory) so that
 * its imports resolve as a user's would; one program for all of them.
 */
function typeErrors(snippets: readonly Snippet[]): Map<string, string[]> {
  const files = new Map(
    snippets.map((snippet) => [
      new URL(`packages/${snippet.pkg}/readme-example-${snippet.name.split('#')[1]}.${snippet.lang}`, ROOT).pathname,
      { snippet, source: `${snippet.code}\nexport {};\n` },
    ]),
  );
  const options: ts.CompilerOptions = {
    ...base,
    noEmit: true,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    typeRoots: [new URL('node_modules/@types/', ROOT).pathname],
    jsx: ts.JsxEmit.ReactJSX,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile: read } = host;
  host.fileExists = (name) => files.has(name) || fileExists(name);
  host.readFile = (name) => files.get(name)?.source ?? read(name);
  host.getSourceFile = (name, version, ...rest) => {
    const virtual = files.get(name);
    return virtual ? ts.createSourceFile(name, virtual.source, version, true) : getSourceFile(name, version, ...rest);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  const errors = new Map(snippets.map((snippet) => [snippet.name, [] as string[]]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const snippet = diagnostic.file && files.get(diagnostic.file.fileName)?.snippet;
    if (snippet) errors.get(snippet.name)!.push(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  }
  return errors;
}

const all = await snippets();
const errors = typeErrors(all.filter((snippet) => snippet.example === undefined));

describe('README examples', () => {
  it('are found in every package README', () => {
    expect(new Set(all.map((s) => s.pkg))).toEqual(new Set(PACKAGES));
    for (const name of Object.keys(RUNNABLE)) expect(all.map((s) => s.name)).toContain(name);
  });

  it.each(all.filter((s) => s.example === undefined).map((s) => [s.name, s] as const))(
    '%s compiles against the packages',
    (_, snippet) => {
      expect(errors.get(snippet.name)).toEqual([]);
    },
  );

  it.each(Object.keys(RUNNABLE))('%s runs and logs what its comments say', async (name) => {
    const snippet = all.find((s) => s.name === name)!;
    // Written beside the package so that its imports resolve as they would for a user; removed after.
    const file = new URL(`packages/${snippet.pkg}/readme-example.run.ts`, ROOT);
    await writeFile(file, snippet.code);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    let logs: unknown[][];
    try {
      await import(file.href);
    } finally {
      logs = [...log.mock.calls];
      log.mockRestore();
      await rm(file);
    }
    RUNNABLE[name]!(logs);
  });
});
