// Bundles the build's content and page steps (scripts/build-steps.ts, the prerender worker and the
// Vike asset probe) into plain JavaScript in .build/ (not in dist/, which Vite may empty while the
// steps run), so that neither the steps nor their worker compile TypeScript at run time: a faster
// start and less memory. Skipped when the sources are those of the last bundle.
import { build } from 'esbuild';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const BUILD_STEPS_DIR = '.build';

export async function bundleBuildSteps(root: string, sources: string): Promise<string> {
  const outDir = join(root, BUILD_STEPS_DIR);
  const stampFile = join(outDir, 'stamp.txt');
  const entry = join(outDir, 'build-steps.mjs');
  if (existsSync(entry) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === sources) return entry;
  await build({
    absWorkingDir: root,
    entryPoints: {
      'build-steps': 'scripts/build-steps.ts',
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
  writeFileSync(stampFile, sources);
  return entry;
}
