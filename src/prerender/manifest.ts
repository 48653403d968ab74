// The build manifest records what each page was made from: the hash of the data it rendered,
// grouped by render task, with a signature of each task's inputs. The next build skips a task
// whose inputs are unchanged and, within a changed task, rewrites only pages whose data changed.
import { hash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cityAdsEntry, getCity, getSite, getStates } from '../content/index.ts';
import type { RenderTask } from './page-list.ts';

export interface TaskRecord {
  /** Hash of the task's inputs; empty for tasks that are always looked at (site-wide and state pages). */
  signature: string;
  /** Page path → hash of the data it was rendered from. */
  pages: Record<string, string>;
  /** Pages that belong in the sitemap, in order. */
  indexable: string[];
}

export interface BuildManifest {
  version: 2;
  /** Hash of the rendering code and the assets pages link to; any change means a full build. */
  renderer: string;
  tasks: Record<string, TaskRecord>;
}

export const hashOf = (value: unknown) => hash('sha1', JSON.stringify(value), 'base64url');

export function taskId(task: RenderTask): string {
  if (task.kind === 'site') return 'site';
  return task.kind === 'state' ? `state:${task.state}` : `city:${task.state}|${task.city}`;
}

/**
 * The signatures of the tasks. A city's pages are made from the site settings, the state's own
 * fields (its flags shape the header and footer; its guide and city list are not shown there),
 * the city and its ads (their digest, from the compiled ads index). The site-wide pages and the
 * state pages show counts from everywhere: they are always looked at, and there are few of them.
 */
export function taskSignatures(tasks: readonly RenderTask[]): string[] {
  const site = getSite();
  const stateKeys = new Map(getStates().map(({ cities: _cities, guideHtml: _guide, ...state }) => [state.name, hashOf({ site, state })]));
  return tasks.map((task) => {
    if (task.kind !== 'city') return '';
    const entry = cityAdsEntry(task.state, task.city);
    return hashOf([stateKeys.get(task.state), getCity(task.state, task.city), entry?.ads ?? 0, entry?.digest ?? '']);
  });
}

export function readManifest(file: string): BuildManifest | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as BuildManifest;
    return manifest.version === 2 ? manifest : undefined;
  } catch {
    return undefined;
  }
}

export function writeManifest(file: string, manifest: BuildManifest): void {
  writeFileSync(file, JSON.stringify(manifest));
}
