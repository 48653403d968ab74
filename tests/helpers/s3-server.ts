// The S3 server a test runs against: in the S3 suite (vitest project `s3`), the run's one throwaway
// radosgw (s3-global-setup.ts), else one started for the file (startS3ServerForFile, ~3 s). A test
// file makes buckets of its own (newTestBucket), so files share the server without seeing each
// other's objects. s3Env() is the settings a server process of ours reads (README "Photos in a
// bucket"); testObjectStorage and testPhotoBucket open a bucket from them as such a process does.
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { ensureS3Server, startThrowawayS3Server } from '../../scripts/s3-server.mjs';
import {
  openObjectStorage,
  type ObjectStorage,
} from '../../store/object-storage/object-storage.ts';
import { s3SettingsFromEnv, type S3Settings } from '../../store/object-storage/s3-settings.ts';
import {
  photoStorageLocationFromEnv,
  type PhotoStorageLocation,
} from '../../store/photo-storage/photo-storage.ts';
import { providedBySuite } from './suite-provided.ts';

export interface S3ServerAddress {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** The S3 suite's server, or undefined in every other suite. */
export const testS3Server = (): S3ServerAddress | undefined => providedBySuite('s3Server');

export const onS3 = () => testS3Server() !== undefined;

/** The suite's server; throws outside the S3 suite. */
export function suiteS3Server(): S3ServerAddress {
  const server = testS3Server();
  if (!server) throw new Error('not in the S3 suite (vitest project s3): no S3 server');
  return server;
}

/**
 * A server of the file's own, for a test outside the S3 suite: call in beforeAll, stop() in
 * afterAll (it ends radosgw before the OSD; scripts/s3-server.mjs).
 */
export async function startS3ServerForFile(): Promise<S3ServerAddress & { stop(): Promise<void> }> {
  const found = ensureS3Server();
  if (!found.binDir) throw new Error(found.problem);
  return startThrowawayS3Server(found.binDir);
}

/** A client as the product makes one: path-style, checksums only when an operation needs one. */
export function testS3Client(server: S3ServerAddress = suiteS3Server()): S3Client {
  return new S3Client({
    endpoint: server.endpoint,
    region: server.region,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** A new, empty bucket with a unique name (`{label}-{hex}`). */
export async function newTestBucket(
  label = 'test',
  server: S3ServerAddress = suiteS3Server(),
): Promise<string> {
  const bucket = `${label}-${randomBytes(5).toString('hex')}`;
  const client = testS3Client(server);
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
  return bucket;
}

/** Deletes every object of `bucket`, then the bucket (what a file's afterAll calls). */
export async function removeTestBucket(
  bucket: string,
  server: S3ServerAddress = suiteS3Server(),
): Promise<void> {
  const client = testS3Client(server);
  try {
    for (;;) {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      const keys = (page.Contents ?? []).map((object) => ({ Key: object.Key! }));
      if (keys.length === 0) break;
      await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys } }));
    }
    await client.send(new DeleteBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
}

/**
 * A bucket of the file's own (newTestBucket), made before its tests and removed after them. Its
 * `name` is filled in by `beforeAll`: read it inside hooks and tests only.
 */
export function testBucketForFile(label: string): { name: string } {
  const bucket = { name: '' };
  beforeAll(async () => {
    bucket.name = await newTestBucket(label);
  });
  afterAll(() => removeTestBucket(bucket.name));
  return bucket;
}

/** The environment a server process of ours reads to reach `server` (the SDK's own names). */
export function s3Env(server: S3ServerAddress = suiteS3Server()): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_S3: server.endpoint,
    AWS_REGION: server.region,
    AWS_ACCESS_KEY_ID: server.accessKeyId,
    AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
    S3_FORCE_PATH_STYLE: '1',
  };
}

/** The suite's server as a process of ours reads it from s3Env(); throws on a wrong setting. */
export function testS3Settings(server: S3ServerAddress = suiteS3Server()): S3Settings {
  const found = s3SettingsFromEnv(s3Env(server));
  if ('problem' in found) throw new Error(found.problem);
  return found.settings;
}

/** `bucket` below `prefix` on the suite's server, opened as a process of ours opens it. */
export function testObjectStorage(bucket: string, prefix: string): ObjectStorage {
  return openObjectStorage({ bucket, prefix }, testS3Settings());
}

/** Photos kept in a bucket on the suite's server, as a server process with PHOTOS_BUCKET finds them. */
export interface TestPhotoBucket {
  /** What the process reads: s3Env() and PHOTOS_BUCKET. */
  env: Record<string, string>;
  location: PhotoStorageLocation;
  /** The bucket below PHOTOS_BUCKET's prefix, as it is: what a test reads back raw (close it). */
  raw: ObjectStorage;
}

/** PHOTOS_BUCKET=`url` (s3://bucket/prefix) on the suite's server. */
export function testPhotoBucket(url: string): TestPhotoBucket {
  const env = { ...s3Env(), PHOTOS_BUCKET: url };
  const location = photoStorageLocationFromEnv(env);
  const { bucket } = location;
  if (!bucket) throw new Error(`PHOTOS_BUCKET=${url} names no bucket`);
  return { env, location, raw: openObjectStorage(bucket.location, bucket.settings) };
}
