// `cem analyze` reads the JSDoc of the element classes (@fires, @slot, @csspart, @cssprop) into custom-elements.json.
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
            if (declaration.events)
              declaration.events = declaration.events.filter((e) => e.name?.startsWith('paykit-'));
          }
        }
      },
    },
  ],
};
