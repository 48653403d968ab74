// Objects in a bucket through the S3 API (AWS S3, Cloudflare R2, Backblaze B2, Ceph RGW, MinIO…),
// for the photos (store/photo-storage/bucket-photo-storage.ts) and the published site. One small API
// over @aws-sdk/client-s3, the only place that speaks to it:
//   put(key, bytes, { contentType, cacheControl?, contentEncoding? })  whole or not at all; the
//       server checks the bytes against their MD5 (Content-MD5) and answers the ETag
//   get(key) → bytes | undefined        head(key) → { size, etag, … } | undefined
//   copy(from, to, headers) → false when `from` is missing (then nothing is written)
//   deleteMany(keys)  1,000 a request; a key already gone is no error
//   list(prefix)  every object under it, a page (1,000) at a time, as an async iterable
//   putFile(key, file, headers) and getFile(key, file): the same for a file too large to hold
//       (a search index of a million ads: 1.3 GB), streamed, its MD5 checked as it goes
// Keys are relative to the location's prefix (bucket-url.ts) and are our decoded paths, spaces,
// apostrophes, ñ and + included: the SDK encodes them. Checksums are computed and validated only
// when an operation requires them (WHEN_REQUIRED): the SDK's default (CRC32 on every request,
// sent as a streaming trailer) is refused by servers we test against (radosgw: 411 on a stream).
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, renameSync, rmSync, statSync } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { bucketUrl, type BucketLocation } from './bucket-url.ts';
import type { S3Settings } from './s3-settings.ts';

export interface ObjectHeaders {
  contentType: string;
  cacheControl?: string;
  contentEncoding?: string;
}

export interface ObjectInfo {
  /** Relative to the location's prefix. */
  key: string;
  size: number;
  /** As the server gives it, quotes removed: the bytes' MD5 in hex for a single-part upload. */
  etag: string;
  lastModified: Date;
}

export interface ObjectStorage {
  readonly location: BucketLocation;
  /** `s3://bucket/prefix/`, for logs. */
  readonly describe: string;
  put(key: string, bytes: Buffer, headers: ObjectHeaders): Promise<{ etag: string }>;
  get(key: string): Promise<Buffer | undefined>;
  /**
   * Puts the file's bytes, streamed (one request: up to 5 GB); `md5` (hex) when the caller has
   * it already, else the file is read once more for it.
   */
  putFile(
    key: string,
    file: string,
    headers: ObjectHeaders,
    md5?: string,
  ): Promise<{ etag: string }>;
  /**
   * Writes the object's bytes to `file` (through `{file}.part`, renamed once whole) when their MD5
   * is `md5`; false when there is no such object. Other bytes: an error, and no file.
   */
  getFile(key: string, file: string, md5: string): Promise<boolean>;
  head(key: string): Promise<(ObjectInfo & Partial<ObjectHeaders>) | undefined>;
  copy(from: string, to: string, headers: ObjectHeaders): Promise<boolean>;
  deleteMany(keys: readonly string[]): Promise<void>;
  list(prefix: string): AsyncIterable<ObjectInfo>;
  /** Ends the client's connections. */
  close(): void;
}

/** The MD5 of `bytes` in hex: a single-part object's ETag. */
export const md5Hex = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

/** The MD5 of a file's bytes in hex, read a piece at a time. */
export async function fileMd5Hex(file: string): Promise<string> {
  const hash = createHash('md5');
  for await (const piece of createReadStream(file)) hash.update(piece as Buffer);
  return hash.digest('hex');
}

const unquoted = (etag: string | undefined) => (etag ?? '').replace(/^"|"$/g, '');

function isMissing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' ||
      error.name === 'NotFound' ||
      error.$metadata.httpStatusCode === 404)
  );
}

export function s3ClientFor(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    forcePathStyle: settings.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export function openObjectStorage(location: BucketLocation, settings: S3Settings): ObjectStorage {
  const client = s3ClientFor(settings);
  const Bucket = location.bucket;
  const full = (key: string) => `${location.prefix}${key}`;
  const relative = (key: string) => key.slice(location.prefix.length);
  const headerFields = (headers: ObjectHeaders) => ({
    ContentType: headers.contentType,
    ...(headers.cacheControl ? { CacheControl: headers.cacheControl } : {}),
    ...(headers.contentEncoding ? { ContentEncoding: headers.contentEncoding } : {}),
  });
  return {
    location,
    describe: bucketUrl(location),
    async put(key, bytes, headers) {
      const ContentMD5 = createHash('md5').update(bytes).digest('base64');
      const answer = await client.send(
        new PutObjectCommand({
          Bucket,
          Key: full(key),
          Body: bytes,
          ContentMD5,
          ...headerFields(headers),
        }),
      );
      return { etag: unquoted(answer.ETag) };
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: full(key) }));
        return Buffer.from(await answer.Body!.transformToByteArray());
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async putFile(key, file, headers, md5) {
      const ContentMD5 = Buffer.from(md5 ?? (await fileMd5Hex(file)), 'hex').toString('base64');
      const answer = await client.send(
        new PutObjectCommand({
          Bucket,
          Key: full(key),
          Body: createReadStream(file),
          ContentLength: statSync(file).size,
          ContentMD5,
          ...headerFields(headers),
        }),
      );
      return { etag: unquoted(answer.ETag) };
    },
    async getFile(key, file, md5) {
      let body: Readable;
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: full(key) }));
        body = answer.Body as Readable;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
      const hash = createHash('md5');
      const hashing = new Transform({
        transform(piece: Buffer, _encoding, done) {
          hash.update(piece);
          done(null, piece);
        },
      });
      const part = `${file}.part`;
      try {
        await pipeline(body, hashing, createWriteStream(part));
        if (hash.digest('hex') !== md5) throw new Error(`${key} came with other bytes`);
        renameSync(part, file);
      } finally {
        rmSync(part, { force: true });
      }
      return true;
    },
    async head(key) {
      try {
        const answer = await client.send(new HeadObjectCommand({ Bucket, Key: full(key) }));
        return {
          key,
          size: answer.ContentLength ?? 0,
          etag: unquoted(answer.ETag),
          lastModified: answer.LastModified ?? new Date(0),
          ...(answer.ContentType ? { contentType: answer.ContentType } : {}),
          ...(answer.CacheControl ? { cacheControl: answer.CacheControl } : {}),
          ...(answer.ContentEncoding ? { contentEncoding: answer.ContentEncoding } : {}),
        };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async copy(from, to, headers) {
      try {
        await client.send(
          new CopyObjectCommand({
            Bucket,
            Key: full(to),
            CopySource: `${Bucket}/${encodeURIComponent(full(from))}`,
            MetadataDirective: 'REPLACE',
            ...headerFields(headers),
          }),
        );
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async deleteMany(keys) {
      for (let at = 0; at < keys.length; at += 1000) {
        const Objects = keys.slice(at, at + 1000).map((key) => ({ Key: full(key) }));
        const answer = await client.send(
          new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }),
        );
        const failed = answer.Errors ?? [];
        if (failed.length > 0)
          throw new Error(
            `${bucketUrl(location)}: ${failed.length} object(s) not deleted, the first ${JSON.stringify(failed[0]?.Key)}: ${failed[0]?.Code} ${failed[0]?.Message ?? ''}`.trim(),
          );
      }
    },
    async *list(prefix) {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: full(prefix), ContinuationToken }),
        );
        for (const object of page.Contents ?? [])
          yield {
            key: relative(object.Key ?? ''),
            size: object.Size ?? 0,
            etag: unquoted(object.ETag),
            lastModified: object.LastModified ?? new Date(0),
          };
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    close: () => client.destroy(),
  };
}
