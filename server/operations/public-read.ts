// What the world may read of the buckets (docs/product.md section 12, README "Serving it"): the
// site's files by their endings (pages, feeds, assets, sitemaps) and the published photos
// (`{photos prefix}photos/`), anonymously, as a CDN or haproxy in front fetches them. Nothing
// else: the photos not public yet (`{photos prefix}private/`), the site's manifest and the content
// released to the instances (`{site prefix}.localboard/`: no file ending, or one not listed)
// need the server's credentials. One bucket policy a bucket.
import type { BucketLocation } from '../../store/object-storage/bucket-url.ts';

/** The endings of the files of the built site; a path without one is a folder's index.html. */
export const SITE_FILE_ENDINGS = [
  'html',
  'xml',
  'txt',
  'csv',
  'css',
  'js',
  'svg',
  'ico',
  'png',
  'webmanifest',
  'woff2',
] as const;

/** The policy of each bucket (one, when the site and the photos share it), by bucket name. */
export function publicReadPolicies(
  site: BucketLocation,
  photos: BucketLocation,
): Map<string, string> {
  const resources = new Map<string, string[]>();
  const add = (bucket: string, resource: string) =>
    resources.set(bucket, [...(resources.get(bucket) ?? []), `arn:aws:s3:::${bucket}/${resource}`]);
  for (const ending of SITE_FILE_ENDINGS) add(site.bucket, `${site.prefix}*.${ending}`);
  add(photos.bucket, `${photos.prefix}photos/*`);
  return new Map(
    [...resources].map(([bucket, resource]) => [
      bucket,
      JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          {
            Sid: 'PublicRead',
            Effect: 'Allow',
            Principal: '*',
            Action: 's3:GetObject',
            Resource: resource,
          },
        ],
      }),
    ]),
  );
}
