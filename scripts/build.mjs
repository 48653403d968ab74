// `npm run build` starts here. Plain JavaScript, so that a small incremental build does not pay for
// compiling TypeScript at start-up (about half a second with tsx): it runs the build
// (src/build/build.ts, its content and page steps and their workers) bundled by esbuild into .build/,
// bundling again whenever the sources have changed since the last bundle.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { withLock } from '../src/build/file-lock.mjs';
import { sourceFingerprint } from '../src/build/fingerprint.mjs';

const root = join(import.meta.dirname, '..');
const outDir = join(root, '.build');
const stampFile = join(outDir, 'stamp.txt');
const sources = sourceFingerprint(root, [
  'scripts',
  'src',
  'renderer',
  'package.json',
  'package-lock.json',
]);

const bundleIsCurrent = () => existsSync(stampFile) && readFileSync(stampFile, 'utf8') === sources;
if (!bundleIsCurrent()) {
  // Another build may be bundling right now (the test suites start several): one at a time.
  await withLock(`${outDir}.lock`, async () => {
    if (bundleIsCurrent()) return;
    const { build, stop } = await import('esbuild');
    await build({
      absWorkingDir: root,
      entryPoints: {
        build: 'src/build/build.ts',
        'compile-content': 'scripts/compile-content.ts',
        'prerender-pages': 'scripts/prerender-pages.ts',
        worker: 'src/build/prerender/worker.ts',
        'ad-check-worker': 'src/build/compile/ad-check-worker.ts',
        'vike-assets': 'src/build/prerender/vike-assets.mjs',
      },
      outdir: outDir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Dependencies are bundled too: one file loads much faster than hundreds of modules. Vike
      // stays outside (its server runtime is only asked for the asset list, from a thread of its
      // own), as does esbuild.
      external: ['vike', 'vike/*', 'esbuild'],
      // The steps always run React's production build.
      define: { 'process.env.NODE_ENV': '"production"' },
      // CommonJS dependencies require Node's built-in modules: give the ES modules a require().
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
      jsx: 'automatic',
      logLevel: 'warning',
    });
    // esbuild's service process would otherwise stay alive (and resident) for the whole build.
    stop();
    writeFileSync(stampFile, sources);
  });
}
await import(pathToFileURL(join(outDir, 'build.mjs')).href);
