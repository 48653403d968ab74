// What the benchmarks of the site in a bucket share (site-bucket.ts, runtime-release.ts): a
// throwaway radosgw on 127.0.0.1 with the site's bucket made, and the one ad an approval adds to
// the generated content (as a member's approved ad would be published beside the CSV ads).
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { AD_COLUMNS } from '../core/schemas/ad.ts';
import { ensureS3Server, startThrowawayS3Server } from '../scripts/s3-server.mjs';
import { openObjectStorage, type ObjectStorage } from '../store/object-storage/object-storage.ts';

const BUCKET = 'localboard-bench';

export interface BenchBucket {
  endpoint: string;
  /** The site's prefix (`site/`) of the bench's bucket. */
  bucket: ObjectStorage;
  /** Closes the bucket's client and ends the server. */
  stop(): Promise<void>;
}

/** A throwaway S3 server holding at most `memoryBytes` (default its own), and the site's bucket. */
export async function startBenchBucket(memoryBytes?: number): Promise<BenchBucket> {
  const found = ensureS3Server((line: string) => console.log(line));
  if (!('binDir' in found) || !found.binDir) throw new Error(`No S3 server: ${found.problem}`);
  const server = await startThrowawayS3Server(found.binDir, memoryBytes ? { memoryBytes } : {});
  try {
    const settings = {
      endpoint: server.endpoint,
      region: server.region,
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    };
    const client = new S3Client(settings);
    await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
    client.destroy();
    const bucket = openObjectStorage({ bucket: BUCKET, prefix: 'site/' }, settings);
    return {
      endpoint: server.endpoint,
      bucket,
      async stop() {
        bucket.close();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** One approved ad in `city`, written as `ads/{file}` of the generated content. */
export function writeApprovedAd(
  contentDir: string,
  file: string,
  { id, state, city, postedAt }: { id: number; state: string; city: string; postedAt: string },
): void {
  mkdirSync(join(contentDir, 'ads'), { recursive: true });
  writeFileSync(
    join(contentDir, 'ads', file),
    stringify(
      [
        {
          ...{ id: String(id), state, city, age: '33', seeks: 'w4m' },
          title: 'Walks by the water at dawn',
          description: 'Looking for company on early walks by the water. Say hello.',
          ...{ images: '', featured: 'false', postedAt },
          ...{ expiresAt: '2027-12-31', sample: 'false' },
        },
      ],
      { header: true, columns: [...AD_COLUMNS] },
    ),
  );
}
