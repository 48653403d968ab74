// Reconcile (docs/product.md section 6, "The site in a bucket"; `npm run reconcile`): compares
// what the bucket holds (ListObjectsV2: every key with its ETag) with the manifest, and repairs
// the drift from the built site: an object missing or with other bytes is put again, an object
// the manifest does not name is deleted (within SITE_MAX_DELETES). A dry run says what it would
// do and does nothing. A file the build no longer has cannot be put back: it is said, and its
// line leaves the manifest, so that the next publish sees the bucket as it is.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { SITE_FOLDER } from '../../../pipeline/prerender/output-layout.ts';
import type { ObjectStorage } from '../../object-storage/object-storage.ts';
import { siteObjectOf } from './built-files.ts';
import { MANIFEST_FOLDER, readSiteManifest, writeSiteManifest } from './site-manifest.ts';
import { cacheControlOf, type SiteObject } from './site-objects.ts';
import { deleteLimit, type DeleteLimit } from './upload-plan.ts';

export interface Drift {
  /** In the manifest, not in the bucket. */
  missing: string[];
  /** In both, with other bytes (the ETag is not the manifest's digest). */
  changed: string[];
  /** In the bucket under the prefix, not in the manifest. */
  extra: string[];
}

export interface Reconciled extends Drift {
  /** Objects the manifest names that the build does not have: their lines were dropped. */
  unrepairable: string[];
  dryRun: boolean;
}

export async function findDrift(
  storage: ObjectStorage,
  objects: ReadonlyMap<string, SiteObject>,
  leaveAlone: readonly string[] = [],
) {
  const drift: Drift = { missing: [], changed: [], extra: [] };
  const seen = new Set<string>();
  for await (const listed of storage.list('')) {
    if (listed.key.startsWith(MANIFEST_FOLDER)) continue;
    if (leaveAlone.some((prefix) => listed.key.startsWith(prefix)) && !objects.has(listed.key))
      continue;
    seen.add(listed.key);
    const object = objects.get(listed.key);
    if (!object) drift.extra.push(listed.key);
    else if (object.digest !== listed.etag || object.size !== listed.size)
      drift.changed.push(listed.key);
  }
  for (const path of objects.keys()) if (!seen.has(path)) drift.missing.push(path);
  return drift;
}

export async function reconcile(options: {
  storage: ObjectStorage;
  outDir: string;
  deleteLimit: DeleteLimit;
  dryRun: boolean;
  /**
   * Key prefixes of objects that are not the site's (the photos' parts when PHOTOS_BUCKET is the
   * same bucket and prefix: server/photos/photo-bucket.ts), never taken as extra.
   */
  leaveAlone?: readonly string[];
}): Promise<Reconciled> {
  const { storage } = options;
  const state = await readSiteManifest(storage);
  const drift = await findDrift(storage, state.objects, options.leaveAlone);
  const siteDir = join(options.outDir, SITE_FOLDER);
  const repairs = [...drift.missing, ...drift.changed];
  const unrepairable = repairs.filter((path) => !existsSync(join(siteDir, path)));
  const result = { ...drift, unrepairable, dryRun: options.dryRun };
  if (options.dryRun) return result;
  const limit = deleteLimit(options.deleteLimit, state.objects.size);
  if (drift.extra.length > limit)
    throw new Error(
      `Reconcile would delete ${drift.extra.length} objects the manifest does not name, more than SITE_MAX_DELETES allows (${limit}): nothing was done.`,
    );
  const put: SiteObject[] = [];
  for (const path of repairs) {
    if (unrepairable.includes(path)) continue;
    const object = siteObjectOf(siteDir, path);
    await storage.put(path, readFileSync(join(siteDir, path)), {
      contentType: object.contentType,
      cacheControl: cacheControlOf(path),
    });
    put.push(object);
  }
  await storage.deleteMany(drift.extra);
  await writeSiteManifest(storage, state, put, unrepairable);
  return result;
}

/** What reconcile found or did, one line a kind of drift. */
export function describeReconciled(result: Reconciled): string {
  const verb = (done: string, would: string) => (result.dryRun ? would : done);
  const lines = [
    `${result.missing.length} missing, ${result.changed.length} changed, ${result.extra.length} extra objects.`,
    ...result.missing.map((path) => `${verb('put', 'would put')} ${path} (missing)`),
    ...result.changed.map((path) => `${verb('put', 'would put')} ${path} (changed)`),
    ...result.extra.map((path) => `${verb('deleted', 'would delete')} ${path} (extra)`),
    ...result.unrepairable.map(
      (path) =>
        `${verb('dropped', 'would drop')} ${path} from the manifest: the build does not have it`,
    ),
  ];
  return lines.join('\n');
}
