// npm run reconcile -- [--dry-run] [--out DIR]: compares the site's bucket (SITE_BUCKET, with the
// S3 settings of the server) with its manifest and repairs the drift from the build in DIR
// (default dist/): objects missing or changed are put again, objects the manifest does not name
// are deleted (server/publishing/site-bucket/reconcile.ts), but for the photos' own objects when
// PHOTOS_BUCKET is the same bucket and prefix. --dry-run says what it would do.
import { resolve } from 'node:path';
import { parseBucketUrl } from '../server/object-storage/bucket-url.ts';
import { PARTS } from '../server/photos/photo-bucket.ts';
import { describeReconciled, reconcile } from '../server/publishing/site-bucket/reconcile.ts';
import { siteStorageFromEnv } from '../server/publishing/site-bucket/site-bucket-settings.ts';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const unknown = args.filter(
  (arg, index) => arg !== '--dry-run' && arg !== '--out' && index !== outAt + 1,
);
if (unknown.length > 0 || (outAt >= 0 && !args[outAt + 1])) {
  console.error('Usage: npm run reconcile -- [--dry-run] [--out DIR]');
  process.exit(2);
}
const site = siteStorageFromEnv(process.env);
if ('problem' in site) {
  console.error(site.problem);
  process.exit(1);
}
// The photos' parts, when PHOTOS_BUCKET shares the site's bucket and prefix, are not the site's.
const photos = parseBucketUrl('PHOTOS_BUCKET', process.env.PHOTOS_BUCKET ?? '');
const shared =
  'location' in photos &&
  photos.location.bucket === site.storage.location.bucket &&
  photos.location.prefix === site.storage.location.prefix;
try {
  const result = await reconcile({
    leaveAlone: shared ? PARTS : [],
    storage: site.storage,
    outDir: resolve(outAt >= 0 ? args[outAt + 1]! : 'dist'),
    deleteLimit: site.deleteLimit,
    dryRun: args.includes('--dry-run'),
  });
  console.log(describeReconciled(result));
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  site.storage.close();
}
