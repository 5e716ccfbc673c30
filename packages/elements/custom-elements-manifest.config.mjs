// `cem analyze` reads the JSDoc of the element classes (@fires, @slot, @csspart, @cssprop) into custom-elements.json,
// and break-stuff's generators (cem-tools) turn that manifest into the types of the bare tags for JSX, Vue and Svelte
// in dist/frameworks/, exported as `@paykit/elements/types/{react,jsx,vue,svelte}`.
import { writeFileSync } from 'node:fs';
import { customElementJsxPlugin } from 'custom-element-jsx-integration';
import { customElementSveltePlugin } from 'custom-element-svelte-integration';
import { customElementVuejsPlugin } from 'custom-element-vuejs-integration';

const frameworks = 'dist/frameworks';
// Each attribute and property typed as the element class has it (`PaykitPayButton['checkoutOrigins']`), imported
// from the package's main types; the generated files sit in dist/frameworks/, next to nothing else.
const generated = { outdir: frameworks, globalTypePath: '../index.js', hideLogs: true };

export default {
  globs: ['src/**/*.ts'],
  exclude: ['src/**/*.test.ts'],
  outdir: '.',
  litelement: true,
  plugins: [
    {
      // Internal reactive state (`_busy`) is not an attribute, and only `paykit-*` names are events: the
      // analyzer also lists the arguments of `dispatchEvent(new SomeEvent(detail))`.
      name: 'paykit-public-surface',
      packageLinkPhase({ customElementsManifest }) {
        for (const module of customElementsManifest.modules) {
          for (const declaration of module.declarations ?? []) {
            if (declaration.attributes)
              declaration.attributes = declaration.attributes.filter((a) => !a.name.startsWith('_'));
            if (declaration.members)
              declaration.members = declaration.members.filter(
                (m) => !m.name.startsWith('_') && m.privacy !== 'private',
              );
            if (declaration.events) {
              declaration.events = declaration.events.filter((e) => e.name?.startsWith('paykit-'));
              // The generators type a listener as `(e: CustomEvent<type>) => void`: the type of each event's
              // `detail`, read from the events' declaration in HTMLElementEventMap (src/events.ts), which the
              // generated files reach through their import of the package's types.
              for (const event of declaration.events) {
                event.type = { text: `HTMLElementEventMap[${JSON.stringify(event.name)}]['detail']` };
              }
            }
          }
        }
      },
    },
    customElementJsxPlugin({ ...generated, fileName: 'jsx.d.ts' }),
    customElementVuejsPlugin({ ...generated, fileName: 'vue.d.ts' }),
    // Its `svelteHTML` declaration sits in a module, where it augments nothing: svelte.d.ts (below) adds it globally.
    customElementSveltePlugin({ ...generated, fileName: 'svelte-elements.d.ts' }),
    {
      // React 19 takes custom elements' types from `React.JSX.IntrinsicElements`: the JSX generator's
      // `CustomElements` added there (its own file declares no module). Each types entry also has an empty
      // module, so that `import '@paykit/elements/types/vue'` resolves at run time as it does for tsc.
      name: 'paykit-framework-entries',
      packageLinkPhase({ customElementsManifest }) {
        // The manifest keeps the events as the analyzer saw them (no type): the detail types were for the generators.
        for (const module of customElementsManifest.modules) {
          for (const declaration of module.declarations ?? [])
            for (const event of declaration.events ?? []) delete event.type;
        }
        writeFileSync(
          `${frameworks}/react.d.ts`,
          [
            '/** The bare `<paykit-*>` tags in React 19 TSX: `import type {} from "@paykit/elements/types/react"` once. */',
            "import type { CustomElements } from './jsx.js';",
            '',
            "declare module 'react' {",
            '  namespace JSX {',
            '    interface IntrinsicElements extends CustomElements {}',
            '  }',
            '}',
            '',
          ].join('\n'),
        );
        writeFileSync(
          `${frameworks}/svelte.d.ts`,
          [
            '/** The bare `<paykit-*>` tags in Svelte: `import type {} from "@paykit/elements/types/svelte"` once. */',
            "import type { CustomElements } from './svelte-elements.js';",
            '',
            'declare global {',
            '  namespace svelteHTML {',
            '    interface IntrinsicElements extends CustomElements {}',
            '  }',
            '}',
            '',
          ].join('\n'),
        );
        for (const name of ['react', 'jsx', 'vue', 'svelte']) {
          writeFileSync(`${frameworks}/${name}.js`, '// Types only: see the .d.ts file beside this one.\nexport {};\n');
        }
      },
    },
  ],
};
