// The build manifest records what each page was made from: a signature of each render task's
// inputs here (build-manifest.json), and the hash of the data each page rendered beside it
// (page-hashes.ts). The next build skips a task whose inputs are unchanged and, within a changed
// task, rewrites only pages whose data changed.
import { hash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  cityAdsEntry,
  getAdCounts,
  getCity,
  getSite,
  getState,
  getStates,
} from '../../content/index.ts';
import type { RenderTask } from './page-list.ts';

export interface TaskRecord {
  /** Hash of the task's inputs; empty for the site-wide pages, which are always looked at. */
  signature: string;
  /** How many pages (their paths and data hashes are in the page-hash file). */
  count: number;
  /** Pages that belong in the sitemap, in order. */
  indexable: string[];
}

export interface BuildManifest {
  version: 4;
  /** Hash of the rendering code and the assets pages link to; any change means a full build. */
  renderer: string;
  tasks: Record<string, TaskRecord>;
}

export const hashOf = (value: unknown) => hash('sha1', JSON.stringify(value), 'base64url');

export function taskId(task: RenderTask): string {
  if (task.kind === 'site') return 'site';
  return task.kind === 'state' ? `state:${task.state}` : `city:${task.state}|${task.city}`;
}

/** The page-hash file that goes with a manifest (page-hashes.ts). */
export const pageHashFileOf = (manifestFile: string) =>
  manifestFile.replace(/\.json$/, '') + '.pages.txt';

/**
 * The signatures of the tasks: what their pages are made from.
 * - A city's pages: the site settings, the state's own fields (its flags shape the header and
 *   footer; its guide and city list are not shown there), the city and its ads (their digest,
 *   from the compiled ads index).
 * - A state page: the site settings, the state and its cities' ad counts.
 * - The site-wide pages show counts from everywhere: they are always looked at (a few pages).
 */
export function taskSignatures(tasks: readonly RenderTask[]): string[] {
  const site = getSite();
  const counts = getAdCounts();
  const stateKeys = new Map(
    getStates().map(({ cities: _cities, guideHtml: _guide, ...state }) => [
      state.name,
      hashOf({ site, state }),
    ]),
  );
  return tasks.map((task) => {
    if (task.kind === 'site') return '';
    if (task.kind === 'state')
      return hashOf({ site, state: getState(task.state), counts: counts[task.state] ?? {} });
    // Plain text (no hash): there is one city task for every city of the country.
    const entry = cityAdsEntry(task.state, task.city);
    return `${stateKeys.get(task.state)} ${getCity(task.state, task.city)?.population} ${entry?.ads ?? 0} ${entry?.digest ?? ''}`;
  });
}

export function readManifest(file: string): BuildManifest | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as BuildManifest;
    return manifest.version === 4 ? manifest : undefined;
  } catch {
    return undefined;
  }
}

export function writeManifest(file: string, manifest: BuildManifest): void {
  writeFileSync(file, JSON.stringify(manifest));
}
