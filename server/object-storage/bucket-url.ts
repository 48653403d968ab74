// A bucket and a prefix in it, as a setting names them: `s3://bucket/prefix` (PHOTOS_BUCKET,
// SITE_BUCKET; README "Object storage"). Keys of objects are the prefix followed by a path of ours
// (`{prefix}photos/ab/….webp`, `{prefix}city/Idaho/Coeur d'Alene/index.html`), so the prefix is
// kept ending in `/` (or empty: the whole bucket).

export interface BucketLocation {
  bucket: string;
  /** '' or ending in '/'. */
  prefix: string;
}

/** S3's rule for bucket names (the strictest of the servers we know: lowercase, 3–63). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * Reads `value`, the setting `name`, as a bucket location; or says in one line what is wrong with
 * it, for the server to stop on at start-up.
 */
export function parseBucketUrl(
  name: string,
  value: string,
): { location: BucketLocation } | { problem: string } {
  const problem = (why: string) => ({
    problem: `${name}: ${why}, got ${JSON.stringify(value)} (expected s3://bucket or s3://bucket/prefix)`,
  });
  const text = value.trim();
  const match = /^s3:\/\/([^/]*)(?:\/(.*))?$/.exec(text);
  if (!match) return problem('not an s3:// address');
  const bucket = match[1] ?? '';
  const path = match[2] ?? '';
  if (bucket === '') return problem('no bucket name');
  if (!BUCKET_NAME.test(bucket) || bucket.includes('..') || /^\d+\.\d+\.\d+\.\d+$/.test(bucket))
    return problem(
      `"${bucket}" is not a bucket name (3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit)`,
    );
  const segments = path.split('/');
  if (path !== '' && segments.slice(0, -1).some((segment) => segment === ''))
    return problem('the prefix has an empty part ("//")');
  if (segments.some((segment) => segment === '.' || segment === '..'))
    return problem('the prefix has a "." or ".." part');
  if (/[\u0000-\u001f\u007f\\]/.test(path))
    return problem('the prefix has a control character or "\\"');
  const prefix = path === '' || path.endsWith('/') ? path : `${path}/`;
  return { location: { bucket, prefix } };
}

/** The setting's form of `location`, for logs: `s3://bucket/prefix/`. */
export const bucketUrl = (location: BucketLocation) => `s3://${location.bucket}/${location.prefix}`;
