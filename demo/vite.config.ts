/**
 * Builds the framework examples (`/react`, `/vue`) and the marketplace's page (with its merchant views) as an app's bundler would:
 * `@paykit/elements` from npm-style imports, React and Vue bundled in. Output:
 * `demo/dist/examples/{react,vue,platform}.js`, loaded by the demo's pages.
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
      input: {
        react: 'examples/react/main.tsx',
        vue: 'examples/vue/main.ts',
        platform: 'examples/platform/main.ts',
      },
      // The React wrappers start with "use client" (for React Server Components, such as Next.js's App Router): a
      // bundle that runs in the browser only has nothing to keep it for, and says so for each file.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('"use client"')) return;
        warn(warning);
      },
      output: { entryFileNames: '[name].js', chunkFileNames: 'shared-[hash].js' },
    },
  },
});
