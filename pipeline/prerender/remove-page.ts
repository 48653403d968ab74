// Removes a page the site no longer has, with the folders it leaves empty.
import { existsSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { outputFileForPath } from '../../core/paths.ts';

/** Removes the page's file; false when there was none. */
export function removePage(outDir: string, path: string): boolean {
  const file = join(outDir, outputFileForPath(path));
  if (!existsSync(file)) return false;
  rmSync(file);
  for (let dir = dirname(file); dir.startsWith(outDir) && dir !== outDir; dir = dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      break; // not empty
    }
  }
  return true;
}
