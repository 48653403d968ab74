// The benchmark's temporary folder: on tmpfs (/dev/shm) when there is one, so that the cost of
// writing 100,000+ small files to disk does not drown the cost of rendering them.
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';

export interface Workspace {
  /** The real folder everything goes to. */
  dir: string;
  onTmpfs: boolean;
  /**
   * The same folder under a name the build can use for `--out`: `dir` itself, or a symbolic link
   * to it next to the project (see `needsLink`).
   */
  buildDir: string;
  /** Removes the folder and the link, if any. */
  remove(): void;
}

const SHM = '/dev/shm';

export function createWorkspace(projectRoot: string): Workspace {
  const onTmpfs = existsSync(SHM);
  const dir = mkdtempSync(join(onTmpfs ? SHM : tmpdir(), 'localboard-bench-'));
  const link = needsLink(dir, projectRoot) ? join(dirname(projectRoot), `.${basename(dir)}`) : '';
  if (link) symlinkSync(dir, link, 'dir');
  return {
    dir,
    onTmpfs,
    buildDir: link || dir,
    remove() {
      if (link) rmSync(link, { force: true });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Vike (0.4.266) decides whether `build.outDir` is absolute by comparing its first folder with
 * that of the working directory, so an output folder on /dev/shm, built from /work/main, is taken
 * as relative ("/work/main/dev/shm/...") and the Vite step fails reading its manifest. A link
 * beside the project (same first folder) points the build at tmpfs all the same.
 */
function needsLink(dir: string, projectRoot: string): boolean {
  return firstFolder(dir) !== firstFolder(projectRoot);
}

const firstFolder = (path: string) => path.split(sep).find(Boolean);
