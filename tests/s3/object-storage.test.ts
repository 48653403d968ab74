// store/object-storage/object-storage.ts against the real S3 server: what is put is what is got,
// byte for byte, under a prefix, with the pages' decoded paths as keys.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex, type ObjectStorage } from '../../store/object-storage/object-storage.ts';
import { testBucketForFile, testObjectStorage, testS3Client } from '../helpers/s3-server.ts';

const bucket = testBucketForFile('object-storage');
let storage: ObjectStorage;
let outside: ObjectStorage;
beforeAll(() => {
  storage = testObjectStorage(bucket.name, 'site/');
  outside = testObjectStorage(bucket.name, '');
});
afterAll(() => {
  storage.close();
  outside.close();
});

const PAGES = [
  'index.html',
  "city/Idaho/Coeur d'Alene/index.html",
  'city/New Mexico/Española/index.html',
  'city/New Hampshire/index.html',
  'search/c++ books.json',
];

describe('object storage through the S3 API', () => {
  it('puts and gets every byte under the prefix, with its headers', async () => {
    const written = new Map(PAGES.map((key) => [key, randomBytes(2000 + key.length)]));
    for (const [key, bytes] of written) {
      const { etag } = await storage.put(key, bytes, {
        contentType: 'text/html; charset=utf-8',
        cacheControl: 'public, max-age=60, stale-while-revalidate=600',
        contentEncoding: 'gzip',
      });
      expect(etag).toBe(md5Hex(bytes));
    }
    for (const [key, bytes] of written) expect((await storage.get(key))?.equals(bytes)).toBe(true);
    // The prefix is part of the key in the bucket itself.
    const bytes = written.get("city/Idaho/Coeur d'Alene/index.html")!;
    expect((await outside.get("site/city/Idaho/Coeur d'Alene/index.html"))?.equals(bytes)).toBe(
      true,
    );
    expect(await storage.head('city/New Mexico/Española/index.html')).toMatchObject({
      key: 'city/New Mexico/Española/index.html',
      size: written.get('city/New Mexico/Española/index.html')!.length,
      etag: md5Hex(written.get('city/New Mexico/Española/index.html')!),
      contentType: 'text/html; charset=utf-8',
      cacheControl: 'public, max-age=60, stale-while-revalidate=600',
      contentEncoding: 'gzip',
    });
  });

  it('answers nothing for a key that is not there', async () => {
    expect(await storage.get('city/Nowhere/index.html')).toBeUndefined();
    expect(await storage.head('city/Nowhere/index.html')).toBeUndefined();
    expect(await storage.copy('city/Nowhere/index.html', 'x', { contentType: 'text/plain' })).toBe(
      false,
    );
    expect(await storage.head('x')).toBeUndefined();
  });

  it('lists a prefix past a page of 1,000 objects, keys relative to the prefix', async () => {
    const keys = Array.from({ length: 1003 }, (_, at) => `many/Española ${at}+'.txt`);
    for (let at = 0; at < keys.length; at += 50)
      await Promise.all(
        keys
          .slice(at, at + 50)
          .map((key) => storage.put(key, Buffer.from(key), { contentType: 'text/plain' })),
      );
    const listed = [];
    for await (const object of storage.list('many/')) listed.push(object);
    expect(listed.map((object) => object.key).sort()).toEqual([...keys].sort());
    expect(listed.find((object) => object.key === keys[7])).toMatchObject({
      size: Buffer.byteLength(keys[7]!),
      etag: md5Hex(Buffer.from(keys[7]!)),
    });

    await storage.deleteMany([...keys, 'many/never there']);
    const left = [];
    for await (const object of storage.list('many/')) left.push(object);
    expect(left).toEqual([]);
  });

  it('copies an object with new headers, the bytes unchanged', async () => {
    const bytes = randomBytes(4096);
    await storage.put("private/Coeur d'Alene.webp", bytes, { contentType: 'image/webp' });
    expect(
      await storage.copy("private/Coeur d'Alene.webp", "public/Coeur d'Alene.webp", {
        contentType: 'image/webp',
        cacheControl: 'public, max-age=31536000, immutable',
      }),
    ).toBe(true);
    expect((await storage.get("public/Coeur d'Alene.webp"))?.equals(bytes)).toBe(true);
    expect(await storage.head("public/Coeur d'Alene.webp")).toMatchObject({
      cacheControl: 'public, max-age=31536000, immutable',
      etag: md5Hex(bytes),
    });
  });

  it('refuses bytes that do not match their digest, keeping nothing (Content-MD5)', async () => {
    // The check the server makes on every put: shown here with a client sending a wrong digest.
    const client = testS3Client();
    const { PutObjectCommand } = await import('@aws-sdk/client-s3');
    await expect(
      client.send(
        new PutObjectCommand({
          Bucket: bucket.name,
          Key: 'site/bad',
          Body: Buffer.from('the bytes'),
          ContentMD5: Buffer.alloc(16).toString('base64'),
        }),
      ),
    ).rejects.toMatchObject({ $metadata: { httpStatusCode: 400 } });
    client.destroy();
    expect(await storage.head('bad')).toBeUndefined();
  });
});
