/**
 * Builds the framework examples (`/react`, `/vue`) as an app's bundler would: `@paykit/elements` from npm-style
 * imports, React and Vue bundled in. Output: `demo/dist/examples/{react,vue}.js`, loaded by the demo's pages.
 */
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('paykit-') } } })],
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist/examples',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: false,
    rolldownOptions: {
      input: { react: 'examples/react/main.tsx', vue: 'examples/vue/main.ts' },
      output: { entryFileNames: '[name].js', chunkFileNames: 'shared-[hash].js' },
    },
  },
});
