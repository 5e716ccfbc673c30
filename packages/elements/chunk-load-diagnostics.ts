/**
 * The development script-tag file's word when one of its lazy chunks does not load (issue 26): a page that copied
 * `paykit.development.js` alone, or serves it from a folder where its `paykit.development.<name>-<hash>.js`
 * files are not, otherwise shows "Something went wrong" and the browser's bare 404. Each `import()` of a chunk is
 * rewritten, after bundling (only then is the file name known), to say in the console which file failed, the URL
 * it tried and where to serve it from. Applied to the development ES build only: the production files carry none
 * of it (not one byte), which `test/chunk-load-diagnostics.test.ts` checks on `dist/`.
 */
import MagicString from 'magic-string';
import type { Plugin } from 'vite';

/** When each lazy chunk is fetched, by the name Rolldown gives it (the module that starts it). */
const FETCHED_WHEN: Readonly<Record<string, string>> = {
  'handle-connect-return': "a platform's OAuth callback page runs <paykit-return>",
  'start-connect': 'a <paykit-connect-button> is added to the page',
  popup: 'a popup <paykit-connect-button> is clicked',
  'drop-in': 'a drop-in <paykit-pay-button> is clicked',
  'create-checkout': 'a <paykit-pay-button> is added to the page',
  'confirm-return': 'a <paykit-return> starts its check',
  'handle-return': "a payment's return is checked (<paykit-return>, or a drop-in's confirmation)",
  framed: 'a button is inside a frame',
};

/**
 * A dynamic import of a chunk next to the file, as Rolldown writes it before hashing: the hash is still a
 * placeholder (`import("./paykit.development.popup-!~{002}~.js")`), which Rolldown fills in after this plugin,
 * in the words added here as well.
 */
const CHUNK_IMPORT = /import\((["'`])(\.\/([\w.!~{}-]+)\.js)\1\)/g;

/** The Vite plugin; `entry` is the script-tag file's name (`paykit.development.js`). */
export function chunkLoadDiagnostics(entry: string): Plugin {
  return {
    name: 'paykit-chunk-load-diagnostics',
    apply: 'build',
    renderChunk(code) {
      const out = new MagicString(code);
      let changed = false;
      for (const match of code.matchAll(CHUNK_IMPORT)) {
        const [whole, , path, file] = match as unknown as [string, string, string, string];
        const name = /^paykit\.development\.(.+)-[\w!~{}]+$/.exec(file)?.[1] ?? file;
        const when = FETCHED_WHEN[name] ?? 'another of its chunks needs it';
        const words =
          ` could not be loaded: it is the part of ${entry} that the page fetches when ${when}. Serve every ` +
          `paykit.development.*.js file of @paykit/elements/dist from the folder ${entry} is served from (copy ` +
          'the whole dist/ folder, not one file; in production the same goes for paykit.*.js beside paykit.js).';
        out.overwrite(
          match.index,
          match.index + whole.length,
          `${whole}.catch((e)=>{console.error("[paykit] "+new URL(${JSON.stringify(path)},import.meta.url).href+${JSON.stringify(words)},e);throw e})`,
        );
        changed = true;
      }
      return changed ? { code: out.toString(), map: out.generateMap({ hires: true }) } : null;
    },
  };
}
