import vike from 'vike/plugin';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [vike()],
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    // Sizes are measured by `npm run bench`; gzipping every chunk here only slows the build.
    reportCompressedSize: false,
    // Vike builds into dist/client and dist/server (and empties them); the build copies the client
    // assets into each site it prerenders (dist/site by default), which Vite and Vike leave alone.
  },
  // Inside the build (src/build/build.ts) only warnings are worth printing.
  logLevel: process.env.BUILD_STEP ? 'warn' : 'info',
});
