import vike from 'vike/plugin';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [vike()],
  esbuild: { jsx: 'automatic' },
  build: {
    // Sizes are measured by `npm run bench`; gzipping every chunk here only slows the build.
    reportCompressedSize: false,
    rollupOptions: {
      onwarn(warning, warn) {
        // zod ships comments Rollup cannot place; nothing to act on.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
    },
  },
  // Inside the build (scripts/build.ts) only warnings are worth printing.
  logLevel: process.env.BUILD_STEP ? 'warn' : 'info',
});
