// The site's bucket (site-bucket.ts) through the S3 API, on the client server/object-storage/
// makes (path-style where S3_FORCE_PATH_STYLE says so, checksums only where an operation needs
// them). Keys go to the SDK as they are, decoded: it encodes them in the request.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { SiteBucket } from './site-bucket.ts';

export interface BucketLocation {
  bucket: string;
  /** '' or ending with '/'. */
  prefix: string;
}

export function s3SiteBucket(client: S3Client, { bucket, prefix }: BucketLocation): SiteBucket {
  return {
    prefix,
    describe: `s3://${bucket}/${prefix}`,
    async put(key, body, headers) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentLength: body.length,
          ContentType: headers.contentType,
          CacheControl: headers.cacheControl,
          ContentMD5: headers.contentMd5,
          ...(headers.contentEncoding ? { ContentEncoding: headers.contentEncoding } : {}),
        }),
      );
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return await answer.Body?.transformToByteArray();
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey')
          return undefined;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async *list(keyPrefix) {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: keyPrefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? [])
          yield {
            key: object.Key!,
            etag: (object.ETag ?? '').replaceAll('"', ''),
            size: object.Size ?? 0,
          };
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
