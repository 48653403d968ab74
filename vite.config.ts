import vike from 'vike/plugin';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [vike()],
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    // Sizes are measured by `npm run bench`; gzipping every chunk here only slows the build.
    reportCompressedSize: false,
    // Vike builds into dist/vite/client and dist/vite/server; the build copies the client's assets
    // into each site it prerenders (dist/client by default), so that the pages are never in the
    // folder Vite empties and scans.
    outDir: 'dist/vite',
  },
  // Inside the build (scripts/build.ts) only warnings are worth printing.
  logLevel: process.env.BUILD_STEP ? 'warn' : 'info',
});
