// A cheap fingerprint of source files (path, size, modification time) to tell whether a build is stale.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export function sourceFingerprint(root: string, entries: readonly string[]): string {
  const hash = createHash('sha256');
  const visit = (path: string) => {
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
