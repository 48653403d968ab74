import { createRequire } from 'node:module';
import { join } from 'node:path';
import vike from 'vike/plugin';
import { defineConfig, type Plugin } from 'vite';
import { devServerApp } from './server/dev/vite-plugin.ts';
import { BUILD_STEPS } from './pipeline/build-steps.ts';

/**
 * Vike reads the pages' + files through esbuild when Vite starts, and esbuild's service process
 * then idles beside the whole build: about 30 MB of the build's peak, all processes together.
 * Stopped as each build starts (the config is read by then); esbuild starts it again by itself if
 * anything calls it later. Vike's own copy of esbuild, so that it is the same service.
 */
function stopEsbuildService(): Plugin {
  return {
    name: 'localboard:stop-esbuild-service',
    apply: 'build',
    async buildStart() {
      const vikeRequire = createRequire(join(import.meta.dirname, 'node_modules', 'vike', 'x.js'));
      await (vikeRequire('esbuild') as { stop(): Promise<void> }).stop();
    },
  };
}

/**
 * The service worker (src/client/service-worker.ts), built with the client's assets as `sw.js`, a
 * name of its own without a hash: a browser finds a worker by its URL, and its scope is the folder
 * it is served from (the site's root). It imports nothing the pages share, so it is one classic
 * script, as every browser runs a service worker.
 */
function serviceWorker(): Plugin {
  return {
    name: 'localboard:service-worker',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    buildStart() {
      this.emitFile({
        type: 'chunk',
        id: join(import.meta.dirname, 'src', 'client', 'service-worker.ts'),
        fileName: 'sw.js',
      });
    },
  };
}

/** A sheet of src/styles/ (src/styles/index.ts lists them). */
const STYLESHEET = /\/src\/styles\/[^/]+\.css$/;

// `vite build` writes the browser's assets to OUT/client and the server build to OUT/server: Vike's
// server entry and, beside it, the build's own steps, with source maps for their stacks (OUT is
// dist/, or the build's --out, which scripts/build.mjs passes as LOCALBOARD_VITE_OUT_DIR).
// Dependencies stay in node_modules: bundling them all in costs Vite about 90 MB more memory.
export default defineConfig({
  plugins: [vike(), stopEsbuildService(), serviceWorker(), devServerApp()],
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    // Sizes are measured by `npm run bench`; gzipping every chunk here only slows the build.
    reportCompressedSize: false,
    outDir: process.env.LOCALBOARD_VITE_OUT_DIR ?? 'dist',
    // OUT may be outside the project (tests, the benchmark): Vike empties OUT/client and OUT/server.
    emptyOutDir: true,
    // Every sheet of src/styles/ in one file, in index.ts's order, which every page links. Vike
    // otherwise makes a file of each CSS module (its workaround for CSS duplicated between pages'
    // chunks, vikejs/vike#1815, which sheets loaded only by the renderer never meet): twenty links.
    rolldownOptions: {
      output: { manualChunks: (id) => (STYLESHEET.test(id) ? 'styles' : undefined) },
    },
  },
  // A native module: loaded from node_modules at run time, never bundled. Kysely, bundled: its
  // few hundred ES modules take Node about 150 ms to load one by one, on every publish's content
  // step (it reads the member ads through the store); in one chunk, about 10 ms.
  ssr: { external: ['better-sqlite3'], noExternal: ['kysely'] },
  environments: {
    ssr: {
      build: {
        sourcemap: true,
        rollupOptions: {
          input: BUILD_STEPS,
          onwarn(warning, warn) {
            // A dependency's `eval` (in gray-matter's optional JavaScript front matter, never used).
            if (warning.code !== 'EVAL') warn(warning);
          },
        },
      },
    },
  },
  // `npm run dev` on 127.0.0.1; LOCALBOARD_DEV_PORT picks the port (Vike's command-line parser
  // refuses Vite's --port, as it does --outDir).
  server: {
    host: '127.0.0.1',
    // The Node that `npm install` may fetch (core/node-runtime.mjs): thousands of headers, never
    // a source of the site.
    watch: { ignored: ['**/.node/**'] },
    ...(process.env.LOCALBOARD_DEV_PORT
      ? { port: Number(process.env.LOCALBOARD_DEV_PORT), strictPort: true }
      : {}),
  },
  // Inside the build (pipeline/build.ts) only warnings are worth printing.
  logLevel: process.env.BUILD_STEP ? 'warn' : 'info',
});
