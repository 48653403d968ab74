// Uploads the built site to its bucket (docs/product.md section 6, "The site in a bucket"): finds
// what may have changed from the build's records (built-files.ts), plans the puts and deletes
// against the manifest (upload-plan.ts), puts each group a few requests at a time, one group
// after the other, deletes last, and only then writes the manifest (site-manifest.ts) and the
// local record of the upload. A failure leaves both as they were: the next publish puts again
// what this one may have put already (the same bytes under the same key).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SITE_FOLDER } from '../../../pipeline/prerender/output-layout.ts';
import { changedSinceLastUpload, forgetUploadRecord, recordUpload } from './built-files.ts';
import type { ObjectStorage } from '../../object-storage/object-storage.ts';
import { readSiteManifest, writeSiteManifest, type ManifestState } from './site-manifest.ts';
import { cacheControlOf, type SiteObject } from './site-objects.ts';
import { deleteLimit, planUpload, type DeleteLimit } from './upload-plan.ts';

export interface SiteUploaderSettings {
  /** The build's output folder: the site is {outDir}/site. */
  outDir: string;
  bucket: ObjectStorage;
  /** SITE_MAX_DELETES. */
  deleteLimit: DeleteLimit;
  /** Requests to the bucket at once (SITE_UPLOAD_CONCURRENCY, default 8). */
  concurrency?: number;
  /**
   * Asked before the manifest is written: false when this instance stopped being the publisher
   * meanwhile (bucket-publishing.ts), and another may be writing it.
   */
  mayWrite?: () => boolean;
}

export type SiteUpload =
  | {
      ok: true;
      /** Objects put, and their bytes. */
      puts: number;
      putBytes: number;
      deletes: number;
      /** Candidates the bucket had already, byte for byte. */
      unchanged: number;
      /** Files read and hashed to find what changed. */
      hashed: number;
      /** Whether every file of the site was looked at (no record of the last upload). */
      full: boolean;
      /** Paths put, then paths deleted (the purge hook's URLs come from them). */
      written: string[];
      removed: string[];
    }
  | { ok: false; message: string };

export interface SiteUploader {
  upload(): Promise<SiteUpload>;
  /**
   * Reads the manifest from the bucket again at the next upload, and looks at every file of the
   * site: another publisher may have written the bucket since this one's last upload.
   */
  forget(): void;
}

export function siteUploader(settings: SiteUploaderSettings): SiteUploader {
  const { outDir, bucket } = settings;
  const siteDir = join(outDir, SITE_FOLDER);
  const concurrency = settings.concurrency ?? 8;
  let manifest: ManifestState | undefined;

  async function upload(): Promise<SiteUpload> {
    manifest ??= await readSiteManifest(bucket);
    const state = manifest;
    const changes = changedSinceLastUpload(outDir);
    const outcome = planUpload({
      candidates: changes.candidates,
      removed: changes.removed ?? state.objects.keys(),
      manifest: state.objects,
      maxDeletes: deleteLimit(settings.deleteLimit, state.objects.size),
    });
    if (outcome.kind === 'braked') return { ok: false, message: outcome.message };
    const { plan } = outcome;
    let putBytes = 0;
    const put: SiteObject[] = [];
    for (const group of plan.puts) {
      await eachAtMost(concurrency, group.objects, async (object) => {
        const bytes = readFileSync(join(siteDir, object.path));
        await bucket.put(object.path, bytes, {
          contentType: object.contentType,
          cacheControl: cacheControlOf(object.path),
        });
        putBytes += bytes.length;
      });
      put.push(...group.objects);
    }
    await bucket.deleteMany(plan.deletes);
    if (settings.mayWrite && !settings.mayWrite())
      throw new Error('this instance stopped being the publisher during the upload');
    await writeSiteManifest(bucket, state, put, plan.deletes);
    recordUpload(outDir, state.objects);
    return {
      ok: true,
      puts: put.length,
      putBytes,
      deletes: plan.deletes.length,
      unchanged: plan.unchanged,
      hashed: changes.hashed,
      full: changes.full,
      written: put.map((object) => object.path),
      removed: plan.deletes,
    };
  }

  return {
    async upload() {
      try {
        return await upload();
      } catch (error) {
        // What the bucket holds is not known for sure now: read again next time.
        manifest = undefined;
        return { ok: false, message: `the upload to ${bucket.describe} failed: ${String(error)}` };
      }
    },
    forget() {
      manifest = undefined;
      forgetUploadRecord(outDir);
    },
  };
}

/** Runs `work` on each item, at most `limit` at a time; rejects with the first failure. */
export async function eachAtMost<T>(
  limit: number,
  items: readonly T[],
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
