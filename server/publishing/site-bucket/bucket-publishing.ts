// One publisher for the site in a bucket (docs/product.md sections 6 and 12): with SITE_BUCKET
// set, every instance builds as before, and the one that holds the publisher's lock (a PostgreSQL
// session lock: store/postgres-session-lock.ts; on SQLite the one instance) uploads what
// each build changed (site-uploader.ts) and purges it from the CDN (purge-hook.ts). The others
// wait for the lock; when its holder dies, PostgreSQL lets it go, the next instance takes it and
// publishes at once, which uploads whatever the one before left undone.
import { readFileSync, rmSync } from 'node:fs';
import type { ObjectStorage } from '../../../store/object-storage/object-storage.ts';
import type { SessionLock } from '../../../store/engine.ts';
import type { PublishOutcome } from '../publisher.ts';
import type { PurgeHook } from './purge-hook.ts';
import { photoFilePath } from '../../../core/schemas/photos.ts';
import { photosTakenDownFile } from '../../../pipeline/prerender/output-layout.ts';
import { kindOf, urlPathOf } from './site-objects.ts';
import { siteUploader } from './site-uploader.ts';
import type { DeleteLimit } from './upload-plan.ts';

/** The publisher's lock, one a database. */
export const SITE_PUBLISHER_LOCK = 'localboard:site-publisher';

export interface BucketPublishingSettings {
  outDir: string;
  storage: ObjectStorage;
  deleteLimit: DeleteLimit;
  concurrency?: number;
  lock: SessionLock;
  purge?: PurgeHook;
  /** The site's public address, for the URLs purged (PUBLIC_BASE_URL, or site.md's baseUrl). */
  baseUrl: () => string;
  log?: (line: string) => void;
}

export interface BucketPublishing {
  /** The site's bucket. */
  readonly storage: ObjectStorage;
  /** Whether this instance is the publisher now (holds the lock). */
  readonly publishing: boolean;
  /** After each build that succeeded: uploads, when this instance is the publisher. */
  afterBuild(): Promise<PublishOutcome>;
  /** Calls `publish` each time this instance becomes the publisher. */
  onTakeOver(publish: (reason: string) => void): void;
  /**
   * Purges, before anything waiting, the public URLs of photos whose bytes were deleted from
   * PHOTOS_BUCKET (a member deletes an ad or the account, an edit drops a photo): cached for a
   * year, they must not outlive it. Those a build hid (a removal, an expiry) `afterBuild` purges.
   */
  purgePhotos(keys: readonly string[]): void;
  /** Resolves once the purges asked for so far are sent. */
  idle(): Promise<void>;
  /** Sends the purges asked for, gives up the lock and ends the bucket's connections. */
  stop(): Promise<void>;
}

export function bucketPublishing(settings: BucketPublishingSettings): BucketPublishing {
  const log = settings.log ?? ((line: string) => console.log(line));
  const { lock, storage } = settings;
  const uploader = siteUploader({
    outDir: settings.outDir,
    bucket: storage,
    deleteLimit: settings.deleteLimit,
    mayWrite: () => lock.held,
    ...(settings.concurrency ? { concurrency: settings.concurrency } : {}),
  });
  // Whoever held the lock meanwhile may have written the bucket: read the manifest again and look
  // at every file (a page another publisher put and the build has removed since is deleted).
  lock.onChange(() => uploader.forget());
  /** The public URL of a URL path of the site. */
  const siteUrl = (urlPath: string) => `${settings.baseUrl().replace(/\/$/, '')}${urlPath}`;
  const urlOf = (path: string) => siteUrl(urlPathOf(path));
  const purgePhotos = (keys: readonly string[]) => {
    if (keys.length > 0)
      settings.purge?.purge(
        keys.map((key) => siteUrl(photoFilePath(key))),
        { urgent: true },
      );
  };

  return {
    storage,
    get publishing() {
      return lock.held;
    },
    async afterBuild() {
      if (!lock.held) return { ok: true };
      // The photos the build hid in PHOTOS_BUCKET, first: they were public, cached for a year.
      purgePhotos(takenDownPhotos(settings.outDir));
      const started = performance.now();
      const upload = await uploader.upload();
      if (!upload.ok) return { ok: false, message: upload.message };
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      log(
        `Uploaded ${upload.puts} objects (${(upload.putBytes / 1e6).toFixed(2)} MB) and deleted ` +
          `${upload.deletes} in ${storage.describe} in ${seconds} s (${upload.hashed} files hashed` +
          `${upload.full ? ', every file of the site looked at' : ''}).`,
      );
      // What was taken down first; new hashed assets were never cached, so never purged.
      settings.purge?.purge(upload.removed.map(urlOf), { urgent: true });
      settings.purge?.purge(upload.written.filter((path) => kindOf(path) !== 'asset').map(urlOf));
      return { ok: true };
    },
    purgePhotos,
    onTakeOver(publish) {
      const hear = (held: boolean) => {
        if (held) publish(`this instance publishes to ${storage.describe} now`);
      };
      lock.onChange(hear);
      if (lock.held) hear(true);
    },
    async idle() {
      await settings.purge?.idle();
    },
    async stop() {
      await settings.purge?.idle();
      await lock.release();
      storage.close();
    },
  };
}

/** The photos the builds took down since the last upload (published-photos.ts), read once. */
function takenDownPhotos(outDir: string): string[] {
  const file = photosTakenDownFile(outDir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  rmSync(file, { force: true });
  return [...new Set(text.split('\n').filter((key) => key !== ''))];
}
