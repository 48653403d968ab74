import vike from 'vike/plugin';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [vike()],
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    // Sizes are measured by `npm run bench`; gzipping every chunk here only slows the build.
    reportCompressedSize: false,
    // dist/client also holds the prerendered pages: scripts/build.ts clears the client build's own
    // folders (assets/, .vite/, and dist/server) before each client build instead.
    emptyOutDir: false,
  },
  // Inside the build (scripts/build.ts) only warnings are worth printing.
  logLevel: process.env.BUILD_STEP ? 'warn' : 'info',
});
