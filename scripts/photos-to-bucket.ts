// npm run photos:to-bucket: moves the bytes of photos from where the server kept them (the folder
// PHOTOS_DIR when set, else the database: DATABASE_URL or DATABASE_PATH) into PHOTOS_BUCKET, with
// the S3 settings the server reads. Safe to stop at any point and to run again: each key is read
// back from the bucket and compared before it leaves the source (server/photos/move-to-bucket.ts).
// Ends with one line counting what moved. Then start the server with PHOTOS_BUCKET and without
// PHOTOS_DIR: its next build publishes the published ads' sizes in the bucket.
import { parseBucketUrl } from '../server/object-storage/bucket-url.ts';
import { openObjectStorage } from '../server/object-storage/object-storage.ts';
import { s3SettingsFromEnv } from '../server/object-storage/s3-settings.ts';
import {
  databaseSource,
  describeMove,
  folderSource,
  movePhotosToBucket,
  type MoveSource,
} from '../server/photos/move-to-bucket.ts';
import { photoBucket } from '../server/photos/photo-bucket.ts';
import { openStore, storeLocationFromEnv } from '../server/store/open-store.ts';
import type { StoreHandle } from '../server/store/store.ts';
import { resolve } from 'node:path';

const fail = (line: string, code = 1): never => {
  console.error(line);
  process.exit(code);
};

const bucketUrl = process.env.PHOTOS_BUCKET?.trim();
if (!bucketUrl) fail('PHOTOS_BUCKET is not set: say where the photos go (s3://bucket/prefix).', 2);
const target = parseBucketUrl('PHOTOS_BUCKET', bucketUrl!);
if ('problem' in target) fail(target.problem, 2);
const s3 = s3SettingsFromEnv(process.env);
if ('problem' in s3) fail(s3.problem, 2);
const { location } = target as Extract<typeof target, { location: unknown }>;
const { settings } = s3 as Extract<typeof s3, { settings: unknown }>;

let store: StoreHandle | undefined;
let source: MoveSource;
const folder = process.env.PHOTOS_DIR?.trim();
if (folder) {
  source = folderSource(resolve(folder));
} else {
  try {
    store = await openStore(storeLocationFromEnv(process.env));
  } catch (error) {
    fail((error as Error).message);
  }
  source = databaseSource(store!);
}
const objects = openObjectStorage(location, settings);
const bucket = photoBucket(objects);
console.log(`Moving the photos of ${source.describe} to ${objects.describe}.`);
let shown = 0;
try {
  const count = await movePhotosToBucket(source, bucket, {
    onKey(count) {
      const done = count.moved + count.alreadyInBucket;
      if (done - shown >= 1000) {
        shown = done;
        console.log(`${done} moved…`);
      }
    },
  });
  console.log(describeMove(count, source, bucket));
} catch (error) {
  console.error(
    `The move stopped: ${(error as Error).message}. Nothing was lost: every file not yet in the bucket is still in ${source.describe}; run the command again to go on.`,
  );
  process.exitCode = 1;
} finally {
  objects.close();
  await store?.close();
}
