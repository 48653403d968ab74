// The build manifest records what each page was made from: the inputs of each render group (as
// its page folders declare them, src/pages/prerender-groups.ts) here (build-manifest.json), and the
// hash of the data each page rendered beside it (page-hashes.ts). The next build skips a group whose
// inputs are unchanged and, within a changed group, rewrites only pages whose data changed.
import { hash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface TaskRecord {
  /** The group's inputs; empty for the site-wide pages, which are always looked at. */
  signature: string;
  /** How many pages (their paths and data hashes are in the page-hash file). */
  count: number;
  /** Pages that belong in the sitemap, in order. */
  indexable: string[];
}

export interface BuildManifest {
  version: 5;
  /** Hash of the rendering code and the assets pages link to; any change means a full build. */
  renderer: string;
  tasks: Record<string, TaskRecord>;
}

export const hashOf = (value: unknown) => hash('sha1', JSON.stringify(value), 'base64url');

/** The page-hash file that goes with a manifest (page-hashes.ts). */
export const pageHashFileOf = (manifestFile: string) =>
  manifestFile.replace(/\.json$/, '') + '.pages.txt';

export function readManifest(file: string): BuildManifest | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as BuildManifest;
    return manifest.version === 5 ? manifest : undefined;
  } catch {
    return undefined;
  }
}

export function writeManifest(file: string, manifest: BuildManifest): void {
  writeFileSync(file, JSON.stringify(manifest));
}
