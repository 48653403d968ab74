// npm run haproxy:config -- --listen :80 --instance 10.0.0.1:3000 --instance 10.0.0.2:3000
//   [--not-found-script PATH] [--policy]
// Prints haproxy's configuration for the site in a bucket (server/operations/haproxy-config.ts):
// the instances for the API and the pages rendered on request, the buckets of SITE_BUCKET and
// PHOTOS_BUCKET (on the S3 server of AWS_ENDPOINT_URL_S3, path-style) for everything else, and the
// site's not-found screens (--not-found-script: where haproxy finds haproxy-not-found.lua; default
// this checkout's copy). With --policy, the bucket policies that let the world read what haproxy
// or a CDN serves from them (server/operations/public-read.ts), one JSON document a bucket.
// README "Serving it".
import { parseArgs } from 'node:util';
import { parseBucketUrl } from '../store/object-storage/bucket-url.ts';
import { haproxyConfig } from '../server/operations/haproxy-config.ts';
import { publicReadPolicies } from '../server/operations/public-read.ts';

const { values } = parseArgs({
  options: {
    listen: { type: 'string', default: ':80' },
    instance: { type: 'string', multiple: true, default: [] },
    policy: { type: 'boolean', default: false },
    'not-found-script': { type: 'string' },
  },
});

function bucketSetting(name: 'SITE_BUCKET' | 'PHOTOS_BUCKET') {
  const parsed = parseBucketUrl(name, process.env[name] ?? '');
  if ('problem' in parsed) {
    console.error(parsed.problem);
    process.exit(1);
  }
  return parsed.location;
}

const site = bucketSetting('SITE_BUCKET');
const photos = bucketSetting('PHOTOS_BUCKET');
if (values.policy) {
  for (const [bucket, policy] of publicReadPolicies(site, photos))
    console.log(`# ${bucket}\n${JSON.stringify(JSON.parse(policy), null, 2)}`);
  process.exit(0);
}
const endpoint = process.env.AWS_ENDPOINT_URL_S3 || process.env.AWS_ENDPOINT_URL;
if (!endpoint || new URL(endpoint).protocol !== 'http:') {
  console.error(
    'AWS_ENDPOINT_URL_S3: the S3 server, http://host:port (haproxy reads it path-style)',
  );
  process.exit(1);
}
if (values.instance.length === 0) {
  console.error('Name each instance: --instance host:port (one or more)');
  process.exit(1);
}
const url = new URL(endpoint);
console.log(
  haproxyConfig({
    listen: values.listen,
    instances: values.instance,
    bucketServer: `${url.hostname}:${url.port || 80}`,
    site,
    photos,
    ...(values['not-found-script'] ? { notFoundScript: values['not-found-script'] } : {}),
  }),
);
