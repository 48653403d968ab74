// Bundles the prerenderer (its main thread, its worker and the Vike asset probe) into plain
// JavaScript in .prerender/ (not in dist/, which Vite may empty while this runs), so that neither
// it nor its workers compile TypeScript at run time: faster start-up and one thread less per
// worker (tsx's loader), hence less memory.
import { build } from 'esbuild';
import { join } from 'node:path';

export async function bundlePrerenderer(root: string, outDir = join(root, '.prerender')): Promise<void> {
  await build({
    absWorkingDir: root,
    entryPoints: {
      run: 'src/prerender/run.ts',
      worker: 'src/prerender/worker.ts',
      'vike-assets': 'src/prerender/vike-assets.mjs',
    },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    jsx: 'automatic',
    logLevel: 'warning',
  });
}
