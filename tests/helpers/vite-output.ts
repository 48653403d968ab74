// What Vite makes in a build's output folder (the client assets in {out}/client, the build's own
// steps in {out}/server) depends on the project's sources only, never on the content. A test that
// builds a site into a fresh folder starts it from a copy of dist/'s when that is current (in a
// whole run the e2e set-up has just built it), so that scripts/build.mjs finds Vite's output
// current and goes straight to the content: Vite takes 4–5 s a build here, one at a time in the
// project (pipeline/file-lock.mjs), and the build tests made it a dozen times a run. When dist/ is
// missing or older than the sources, nothing is copied and the build runs Vite itself. The tests
// of the Vite step itself (parallel builds, --full, the pinned Node) do not use this.
import { cpSync, existsSync, readFileSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { filesStamp, PROJECT_SOURCES } from '../../pipeline/fingerprint.mjs';

const root = join(import.meta.dirname, '..', '..');
const dist = join(root, 'dist');

/** Whether dist/ holds Vite's output of the sources as they are now. */
function distViteIsCurrent(): boolean {
  const stamp = join(dist, 'server', 'sources-stamp.txt');
  return (
    existsSync(stamp) &&
    existsSync(join(dist, 'server', 'build.mjs')) &&
    readFileSync(stamp, 'utf8') === filesStamp(root, PROJECT_SOURCES)
  );
}

/**
 * Puts dist/'s current Vite output into `outDir` when it has none yet; answers whether it did (the
 * build then skips its Vite step).
 */
export function withViteOutputOfDist(outDir: string): boolean {
  if (existsSync(join(outDir, 'server', 'sources-stamp.txt')) || !distViteIsCurrent()) return false;
  cpSync(join(dist, 'client'), join(outDir, 'client'), { recursive: true });
  cpSync(join(dist, 'server'), join(outDir, 'server'), {
    recursive: true,
    filter: (path) => basename(path) !== 'node_modules',
  });
  // As scripts/build.mjs links it for an output folder outside the project: the steps import the
  // project's dependencies.
  symlinkSync(join(root, 'node_modules'), join(outDir, 'server', 'node_modules'), 'dir');
  return true;
}
