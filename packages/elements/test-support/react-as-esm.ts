/**
 * React ships CommonJS only, which a browser cannot import. For the React wrappers' tests, this
 * web-test-runner plugin bundles `react`, `react-dom`, `react-dom/client` and `react-dom/server` once with esbuild into ES
 * modules sharing one React (default and named exports, as an app's bundler would offer them) and points the
 * bare imports at them.
 */
import type { TestRunnerPlugin } from '@web/test-runner';
import { build } from 'esbuild';
import { createRequire } from 'node:module';

const MODULES = ['react', 'react-dom', 'react-dom/client', 'react-dom/server'] as const;
const PREFIX = '/__react-esm/';
const fileOf = (module: string) => `${module.replaceAll('/', '-')}.js`;

/** The plugin; awaits the bundle, about 100 ms. */
export async function reactAsEsm(): Promise<TestRunnerPlugin> {
  process.env.NODE_ENV ??= 'development';
  const require = createRequire(import.meta.url);
  const entries = Object.fromEntries(
    MODULES.map((module) => {
      const names = Object.keys(require(module) as object).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
      const source = `import m from '${module}'; export default m; export const { ${names.join(', ')} } = m;`;
      return [module, source];
    }),
  );
  const result = await build({
    entryPoints: MODULES.map((module) => ({ in: `entry:${module}`, out: fileOf(module).slice(0, -3) })),
    bundle: true,
    splitting: true,
    format: 'esm',
    write: false,
    outdir: '/out',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
    plugins: [
      {
        name: 'entries',
        setup(esbuild) {
          esbuild.onResolve({ filter: /^entry:/ }, (args) => ({ path: args.path, namespace: 'entry' }));
          esbuild.onLoad({ filter: /.*/, namespace: 'entry' }, (args) => ({
            contents: entries[args.path.slice('entry:'.length)],
            resolveDir: import.meta.dirname,
          }));
        },
      },
    ],
  });
  const files = new Map(result.outputFiles.map((file) => [file.path.replace(/^\/out\//, PREFIX), file.text]));
  return {
    name: 'react-as-esm',
    resolveImport({ source }) {
      return (MODULES as readonly string[]).includes(source) ? PREFIX + fileOf(source) : undefined;
    },
    serve(context) {
      const body = files.get(context.path);
      return body === undefined ? undefined : { body, type: 'js' };
    },
  };
}
