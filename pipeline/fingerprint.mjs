// The one way the build tells what changed: a file is taken as unchanged while its stamp (size,
// modification time, inode) is the one it had. Stamps of source folders decide when Vite runs again
// (scripts/build.mjs), of the content folder whether `--if-needed` has anything to do, and of each
// ads file whether it is read again (compile/ad-file-cache.ts). Plain JavaScript: scripts/build.mjs
// uses it before anything is built.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The project's sources, relative to its folder: a change to any of them means Vite runs again. */
export const PROJECT_SOURCES = [
  'core',
  'store',
  'src',
  'pipeline',
  'search',
  'server',
  'scripts',
  'public',
  'vite.config.ts',
  'package.json',
  'package-lock.json',
];

/**
 * @param {import('node:fs').Stats} stats
 * @returns {string}
 */
export function fileStamp(stats) {
  return `${stats.size}:${stats.ino}:${stats.mtimeMs}`;
}

/**
 * @param {string} root
 * @param {readonly string[]} entries files or folders under `root`
 * @returns {string}
 */
export function filesStamp(root, entries) {
  const hash = createHash('sha256');
  /** @param {string} path */
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
    } else {
      hash.update(`${relative(root, path)}\0${fileStamp(stats)}\n`);
    }
  };
  for (const entry of entries) visit(join(root, entry));
  return hash.digest('hex');
}
