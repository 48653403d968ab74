// The settings of the site in a bucket (README "The site in a bucket"): SITE_BUCKET (s3://bucket/prefix,
// with the S3 settings of store/object-storage/), SITE_MAX_DELETES, SITE_UPLOAD_CONCURRENCY and
// the CDN purge hook's (purge-hook.ts). Unset SITE_BUCKET: nothing changes. A bad value is one
// line, for the server to stop on at start-up.
import { parseBucketUrl } from '../../../store/object-storage/bucket-url.ts';
import {
  openObjectStorage,
  type ObjectStorage,
} from '../../../store/object-storage/object-storage.ts';
import { s3SettingsFromEnv } from '../../../store/object-storage/s3-settings.ts';
import type { StoreHandle } from '../../../store/store.ts';
import {
  bucketPublishing,
  SITE_PUBLISHER_LOCK,
  type BucketPublishing,
} from './bucket-publishing.ts';
import { purgeHookFromEnv } from './purge-hook.ts';
import { parseDeleteLimit, type DeleteLimit } from './upload-plan.ts';

export interface SiteBucketContext {
  outDir: string;
  /** The publisher's lock, and the CDN purge budget every instance on the database shares. */
  store: Pick<StoreHandle, 'sessionLock' | 'purgeBudget'>;
  baseUrl: () => string;
  log?: (line: string) => void;
}

/** The site's bucket and its brake (SITE_BUCKET must be set), or what is wrong, in one line. */
export function siteStorageFromEnv(
  env: NodeJS.ProcessEnv,
): { storage: ObjectStorage; deleteLimit: DeleteLimit } | { problem: string } {
  const location = parseBucketUrl('SITE_BUCKET', env.SITE_BUCKET ?? '');
  if ('problem' in location) return location;
  const s3 = s3SettingsFromEnv(env);
  if ('problem' in s3) return s3;
  const deleteLimit = parseDeleteLimit(env.SITE_MAX_DELETES);
  if (!deleteLimit)
    return {
      problem: `SITE_MAX_DELETES: expected a number of objects or a share of the site (10%), got ${JSON.stringify(env.SITE_MAX_DELETES)}`,
    };
  return { storage: openObjectStorage(location.location, s3.settings), deleteLimit };
}

export function bucketPublishingFromEnv(
  env: NodeJS.ProcessEnv,
  context: SiteBucketContext,
): { publishing?: BucketPublishing } | { problem: string } {
  if (!env.SITE_BUCKET?.trim()) return {};
  const site = siteStorageFromEnv(env);
  if ('problem' in site) return site;
  const concurrency = Number(env.SITE_UPLOAD_CONCURRENCY || 8);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    return {
      problem: `SITE_UPLOAD_CONCURRENCY: expected a whole number of 1 or more, got ${JSON.stringify(env.SITE_UPLOAD_CONCURRENCY)}`,
    };
  let purge;
  try {
    purge = purgeHookFromEnv(env, context.log, context.store.purgeBudget);
  } catch (error) {
    return { problem: (error as Error).message };
  }
  return {
    publishing: bucketPublishing({
      outDir: context.outDir,
      storage: site.storage,
      deleteLimit: site.deleteLimit,
      concurrency,
      lock: context.store.sessionLock(SITE_PUBLISHER_LOCK),
      ...(purge ? { purge } : {}),
      baseUrl: context.baseUrl,
      ...(context.log ? { log: context.log } : {}),
    }),
  };
}
