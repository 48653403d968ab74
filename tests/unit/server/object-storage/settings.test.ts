import { describe, expect, it } from 'vitest';
import { bucketUrl, parseBucketUrl } from '../../../../server/object-storage/bucket-url.ts';
import { s3SettingsFromEnv } from '../../../../server/object-storage/s3-settings.ts';

describe('a bucket setting (PHOTOS_BUCKET, SITE_BUCKET)', () => {
  it('reads a bucket and a prefix, kept ending in /', () => {
    expect(parseBucketUrl('PHOTOS_BUCKET', 's3://localboard-photos')).toEqual({
      location: { bucket: 'localboard-photos', prefix: '' },
    });
    expect(parseBucketUrl('PHOTOS_BUCKET', 's3://localboard/photos')).toEqual({
      location: { bucket: 'localboard', prefix: 'photos/' },
    });
    expect(parseBucketUrl('SITE_BUCKET', ' s3://site.example.com/live/v1/ ')).toEqual({
      location: { bucket: 'site.example.com', prefix: 'live/v1/' },
    });
    expect(bucketUrl({ bucket: 'b-1', prefix: 'p/' })).toBe('s3://b-1/p/');
  });

  it.each([
    ['localboard/photos', 'not an s3:// address'],
    ['https://localboard.s3.amazonaws.com/', 'not an s3:// address'],
    ['s3://', 'no bucket name'],
    ['s3:///photos', 'no bucket name'],
    ['s3://Localboard', '"Localboard" is not a bucket name'],
    ['s3://ab', '"ab" is not a bucket name'],
    ['s3://my_bucket', '"my_bucket" is not a bucket name'],
    ['s3://a..b', '"a..b" is not a bucket name'],
    ['s3://bucket/a//b', 'the prefix has an empty part'],
    ['s3://bucket/../b', 'the prefix has a "." or ".." part'],
  ])('refuses %s, saying why', (value, why) => {
    const answer = parseBucketUrl('PHOTOS_BUCKET', value);
    expect('problem' in answer && answer.problem).toContain(`PHOTOS_BUCKET: ${why}`);
    expect('problem' in answer && answer.problem).toContain(JSON.stringify(value));
  });
});

describe("the S3 server's settings (the SDK's own, and S3_FORCE_PATH_STYLE)", () => {
  it('reads the endpoint, region, keys and path style', () => {
    expect(
      s3SettingsFromEnv({
        AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9000',
        AWS_ENDPOINT_URL: 'http://elsewhere:1',
        AWS_REGION: 'eu-west-3',
        AWS_ACCESS_KEY_ID: 'key',
        AWS_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: '1',
      }),
    ).toEqual({
      settings: {
        endpoint: 'http://127.0.0.1:9000',
        region: 'eu-west-3',
        forcePathStyle: true,
        credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      },
    });
  });

  it("leaves AWS S3 itself, us-east-1 and the SDK's own credentials when unset", () => {
    expect(s3SettingsFromEnv({})).toEqual({
      settings: { endpoint: undefined, region: 'us-east-1', forcePathStyle: false },
    });
  });

  it.each([
    [
      { AWS_ENDPOINT_URL_S3: '127.0.0.1:9000' },
      'AWS_ENDPOINT_URL_S3: expected an http:// or https://',
    ],
    [{ AWS_ENDPOINT_URL: 'ftp://x' }, 'AWS_ENDPOINT_URL: expected an http:// or https://'],
    [{ S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE: expected 1'],
    [{ AWS_ACCESS_KEY_ID: 'key' }, 'only AWS_ACCESS_KEY_ID is set'],
  ])('refuses %j, saying why', (env, why) => {
    const answer = s3SettingsFromEnv(env);
    expect('problem' in answer && answer.problem).toContain(why);
  });
});
