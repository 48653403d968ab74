// The test S3 server (Ceph's radosgw, scripts/s3-server.mjs) keeps bytes as AWS S3 does, through
// the SDK set up as the product sets it up: every operation the product and the site publisher
// use, each read back and compared byte for byte, with keys as the pages' decoded paths (spaces,
// apostrophes, ñ, +).
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newTestBucket,
  removeTestBucket,
  suiteS3Server,
  testS3Client,
} from '../helpers/s3-server.ts';

const ESPANOLA = 'city/New Mexico/Española/index.html';
const KEYS = [
  'index.html',
  "city/Idaho/Coeur d'Alene/index.html",
  ESPANOLA,
  'city/New Hampshire/index.html',
  'search/a+b c.json',
];

let client: S3Client;
let bucket: string;
beforeAll(async () => {
  client = testS3Client();
  bucket = await newTestBucket('round-trip');
});
afterAll(async () => {
  await removeTestBucket(bucket);
  client.destroy();
});

async function bytesOf(key: string): Promise<Buffer> {
  const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await answer.Body!.transformToByteArray());
}

const md5 = (bytes: Buffer) => `"${createHash('md5').update(bytes).digest('hex')}"`;

describe('the test S3 server', () => {
  it('keeps and gives back every byte, under keys with spaces, apostrophes, ñ and +', async () => {
    const written = new Map(KEYS.map((key) => [key, randomBytes(3000 + key.length)]));
    for (const [key, bytes] of written) {
      const put = await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: bytes,
          ContentType: 'text/html; charset=utf-8',
          CacheControl: 'public, max-age=60',
        }),
      );
      expect(put.ETag).toBe(md5(bytes));
    }
    for (const [key, bytes] of written) expect((await bytesOf(key)).equals(bytes)).toBe(true);

    const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: ESPANOLA }));
    expect(head.ContentLength).toBe(written.get(ESPANOLA)!.length);
    expect(head.ContentType).toBe('text/html; charset=utf-8');
    expect(head.CacheControl).toBe('public, max-age=60');
    expect(head.ETag).toBe(md5(written.get(ESPANOLA)!));

    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'city/' }));
    expect((listed.Contents ?? []).map((object) => object.Key).sort()).toEqual(
      KEYS.filter((key) => key.startsWith('city/')).sort(),
    );
  });

  it('lists page by page with a continuation token', async () => {
    const keys = Array.from({ length: 7 }, (_, at) => `paged/${at} ñ+'.txt`);
    for (const key of keys)
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: key }));
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: bucket,
          Prefix: 'paged/',
          MaxKeys: 3,
          ContinuationToken: token,
        }),
      );
      seen.push(...(page.Contents ?? []).map((object) => object.Key!));
      token = page.NextContinuationToken;
    } while (token);
    expect(seen.sort()).toEqual([...keys].sort());
  });

  it('deletes one object, and many at once', async () => {
    const keys = ['gone/one', "gone/Coeur d'Alene", 'gone/Española', 'gone/a+b'];
    for (const key of keys)
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'x' }));
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keys[0] }));
    const many = await client.send(
      new DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: keys.slice(1).map((Key) => ({ Key })) },
      }),
    );
    expect(many.Errors ?? []).toEqual([]);
    const left = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'gone/' }));
    expect(left.Contents ?? []).toEqual([]);
    await expect(
      client.send(new HeadObjectCommand({ Bucket: bucket, Key: 'gone/Española' })),
    ).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
  });

  it('copies an object with new headers, byte for byte', async () => {
    const bytes = randomBytes(5000);
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'private/a b', Body: bytes }));
    await client.send(
      new CopyObjectCommand({
        Bucket: bucket,
        Key: 'public/a b',
        CopySource: `${bucket}/${encodeURIComponent('private/a b')}`,
        MetadataDirective: 'REPLACE',
        ContentType: 'image/webp',
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
    expect((await bytesOf('public/a b')).equals(bytes)).toBe(true);
    const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: 'public/a b' }));
    expect(head.CacheControl).toBe('public, max-age=31536000, immutable');
  });

  it('puts a stream body of a known length', async () => {
    const bytes = randomBytes(200_000);
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'stream/Española',
        Body: Readable.from([bytes.subarray(0, 70_000), bytes.subarray(70_000)]),
        ContentLength: bytes.length,
      }),
    );
    expect((await bytesOf('stream/Española')).equals(bytes)).toBe(true);
  });

  it("refuses a stream body sent with the SDK's default checksums: why the product sets WHEN_REQUIRED", async () => {
    const server = suiteS3Server();
    const byDefault = new S3Client({
      endpoint: server.endpoint,
      region: server.region,
      credentials: server,
      forcePathStyle: true,
    });
    const bytes = randomBytes(100_000);
    try {
      // A buffer goes through (its CRC32 in a header) …
      await byDefault.send(
        new PutObjectCommand({ Bucket: bucket, Key: 'default/buffer', Body: bytes }),
      );
      expect((await bytesOf('default/buffer')).equals(bytes)).toBe(true);
      // … a stream (the CRC32 as a trailer of a chunked body) is refused, and nothing is kept.
      await expect(
        byDefault.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: 'default/stream',
            Body: Readable.from([bytes]),
            ContentLength: bytes.length,
          }),
        ),
      ).rejects.toMatchObject({ $metadata: { httpStatusCode: 411 } });
      await expect(
        client.send(new HeadObjectCommand({ Bucket: bucket, Key: 'default/stream' })),
      ).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    } finally {
      byDefault.destroy();
    }
  });

  it('puts an object in parts (multipart) and gives back the whole', async () => {
    const key = "multipart/Coeur d'Alene/Española+big.bin";
    const parts = [randomBytes(5 * 1024 * 1024), randomBytes(5 * 1024 * 1024), randomBytes(1234)];
    const { UploadId } = await client.send(
      new CreateMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        ContentType: 'application/octet-stream',
      }),
    );
    const done = [];
    for (const [at, body] of parts.entries()) {
      const part = await client.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: key,
          UploadId,
          PartNumber: at + 1,
          Body: body,
        }),
      );
      done.push({ ETag: part.ETag, PartNumber: at + 1 });
    }
    const completed = await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId,
        MultipartUpload: { Parts: done },
      }),
    );
    const whole = Buffer.concat(parts);
    expect((await bytesOf(key)).equals(whole)).toBe(true);
    // radosgw answers CompleteMultipartUpload with an empty ETag (AWS gives the multipart one);
    // HEAD has it: the digest of the parts' digests, a dash, the number of parts.
    expect(completed.ETag ?? '').toBe('');
    const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    expect(head.ContentLength).toBe(whole.length);
    expect(head.ETag).toMatch(/^"[0-9a-f]{32}-3"$/);
  });
});
