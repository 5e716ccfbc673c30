/**
 * The types of the bare tags (`@paykit/elements/types/{react,vue,svelte}`, generated from the custom elements
 * manifest by `pnpm build`), checked as each framework's users check them: `tsc` on a React 19 TSX file, `vue-tsc`
 * on a Vue component, `svelte-check` on Svelte components (test/framework-types/). The TSX and Vue files pass,
 * and each of their expect-error comments must meet an error; the Svelte checker must pass the good file and
 * report exactly the bad file's three errors.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const here = fileURLToPath(new URL('.', import.meta.url));
const bin = (name: string): string => fileURLToPath(new URL(`node_modules/.bin/${name}`, import.meta.url));

/** A checker's exit code and everything it printed. */
async function check(command: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(bin(command), args, { cwd: here });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

beforeAll(() => {
  const generated = fileURLToPath(new URL('../packages/elements/dist/frameworks/react.d.ts', import.meta.url));
  if (!existsSync(generated)) throw new Error('packages/elements/dist/frameworks is missing: run `pnpm build` first');
});

describe('the bare tags typed for each framework', { timeout: 120_000 }, () => {
  it('React 19 TSX (React.JSX.IntrinsicElements): tsc passes, every @ts-expect-error met', async () => {
    const { code, output } = await check('tsc', ['-p', 'framework-types/react']);
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  it('Vue (GlobalComponents): vue-tsc passes, every @vue-expect-error met', async () => {
    const { code, output } = await check('vue-tsc', ['-p', 'framework-types/vue']);
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  it('Svelte (svelteHTML.IntrinsicElements): svelte-check passes the good file and refuses the bad one', async () => {
    const { output } = await check('svelte-check', [
      '--workspace',
      'framework-types/svelte',
      '--tsconfig',
      './tsconfig.json',
      '--output',
      'machine',
    ]);
    const problems = output
      .split('\n')
      .filter((line) => / (ERROR|WARNING) /.test(line))
      .map((line) => line.replace(/^\d+ /, ''));
    expect(problems).toEqual([
      `ERROR "bad/Shop.svelte" 6:35 "Type 'string' is not assignable to type 'number'."`,
      `ERROR "bad/Shop.svelte" 7:44 "Type '\\"cookie\\"' is not assignable to type '\\"local\\" | \\"session\\" | undefined'."`,
      `ERROR "bad/Shop.svelte" 8:80 "Property 'amount' does not exist on type 'PaykitErrorDetail'."`,
    ]);
  });
});
