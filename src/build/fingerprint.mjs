// A cheap fingerprint of source files (path, size, modification time) to tell whether a build is
// stale. Plain JavaScript: scripts/build.mjs uses it before anything is bundled.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * @param {string} root
 * @param {readonly string[]} entries files or folders under `root`
 * @returns {string}
 */
export function sourceFingerprint(root, entries) {
  const hash = createHash('sha256');
  /** @param {string} path */
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
    } else {
      hash.update(`${relative(root, path)}\0${stats.size}\0${stats.mtimeMs}\n`);
    }
  };
  for (const entry of entries) visit(join(root, entry));
  return hash.digest('hex');
}
