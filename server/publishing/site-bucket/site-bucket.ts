// The bucket the site is published to (SITE_BUCKET=s3://bucket/prefix), as publishing needs it:
// put a file with its headers, read one back, delete, list. Implemented over the S3 client of
// server/object-storage/ (s3-site-bucket.ts); the tests run it against a real S3 server.

export interface PutHeaders {
  contentType: string;
  cacheControl: string;
  /** Absent for bytes uploaded as they are. */
  contentEncoding?: string;
  /** MD5 of the bytes, base64: the server refuses bytes that do not match. */
  contentMd5: string;
}

export interface ListedObject {
  key: string;
  /** The ETag without its quotes: the MD5 of an object put in one request. */
  etag: string;
  size: number;
}

export interface SiteBucket {
  /** The prefix every key of the site starts with: '' or ending with '/'. */
  readonly prefix: string;
  /** Names the bucket in logs and messages: `s3://bucket/prefix`. */
  readonly describe: string;
  put(key: string, body: Uint8Array, headers: PutHeaders): Promise<void>;
  /** The object's bytes, or undefined when there is none. */
  get(key: string): Promise<Uint8Array | undefined>;
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` (ListObjectsV2, a page at a time). */
  list(prefix: string): AsyncIterable<ListedObject>;
}
