import vike from 'vike/plugin';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [vike()],
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    // Sizes are measured by `npm run bench`; gzipping every chunk here only slows the build.
    reportCompressedSize: false,
  },
  // Inside the build (scripts/build.ts) only warnings are worth printing.
  logLevel: process.env.BUILD_STEP ? 'warn' : 'info',
});
