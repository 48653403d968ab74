// The build manifest records what each page was made from: the hash of the data it rendered,
// grouped by render task, with a signature of each task's inputs. The next build skips a task
// whose inputs are unchanged and, within a changed task, rewrites only pages whose data changed.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { getSite, getState } from '../content/index.ts';
import type { AdCounts } from '../schemas/compiled-content.ts';
import type { RenderTask } from './page-list.ts';

export interface TaskRecord {
  /** Hash of the task's inputs; empty for a task that is always looked at (the site-wide pages). */
  signature: string;
  /** Page path → hash of the data it was rendered from. */
  pages: Record<string, string>;
  /** Pages that belong in the sitemap, in order. */
  indexable: string[];
}

export interface BuildManifest {
  version: 1;
  /** Hash of the rendering code and the assets pages link to; any change means a full build. */
  renderer: string;
  tasks: Record<string, TaskRecord>;
}

export const hashOf = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('base64url');

export const taskId = (task: RenderTask) => (task.kind === 'site' ? 'site' : `state:${task.state}`);

/** What a state's pages are made from: the site settings they show, the state, its ads. */
export function taskSignature(task: RenderTask, adCounts: AdCounts, stateAdFiles: Record<string, string>): string {
  if (task.kind === 'site') return '';
  return hashOf({ site: getSite(), state: getState(task.state), counts: adCounts[task.state] ?? {}, ads: stateAdFiles[task.state] ?? '' });
}

export function readManifest(file: string): BuildManifest | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as BuildManifest;
    return manifest.version === 1 ? manifest : undefined;
  } catch {
    return undefined;
  }
}

export function writeManifest(file: string, manifest: BuildManifest): void {
  writeFileSync(file, JSON.stringify(manifest));
}
