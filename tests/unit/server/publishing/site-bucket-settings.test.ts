// The settings of the site in a bucket (server/publishing/site-bucket/site-bucket-settings.ts):
// unset, nothing changes; each bad value is one line naming its setting, for the server to stop on.
import { expect, test } from 'vitest';
import type { SessionLock } from '../../../../store/engine.ts';
import { purgeBudgetInMemory } from '../../../../server/publishing/site-bucket/purge-hook.ts';
import { bucketPublishingFromEnv } from '../../../../server/publishing/site-bucket/site-bucket-settings.ts';

const held: SessionLock = { held: true, onChange: () => () => {}, release: async () => {} };
const context = {
  outDir: '/tmp/none',
  store: { sessionLock: () => held, purgeBudget: purgeBudgetInMemory() },
  baseUrl: () => '',
};
const problemOf = (env: NodeJS.ProcessEnv) => {
  const found = bucketPublishingFromEnv(env, context);
  return 'problem' in found ? found.problem : undefined;
};
const SITE = { SITE_BUCKET: 's3://site-bucket/prefix', AWS_REGION: 'us-east-1' };

test('without SITE_BUCKET nothing is published to a bucket', () => {
  expect(bucketPublishingFromEnv({}, context)).toEqual({});
});

test('with it, the publishing is set up', async () => {
  const found = bucketPublishingFromEnv(SITE, context);
  expect('publishing' in found && found.publishing).toBeTruthy();
  if ('publishing' in found) await found.publishing?.stop();
});

test.each([
  [
    { SITE_BUCKET: 'https://bucket' },
    'SITE_BUCKET: not an s3:// address, got "https://bucket" (expected s3://bucket or s3://bucket/prefix)',
  ],
  [
    { ...SITE, SITE_MAX_DELETES: 'lots' },
    'SITE_MAX_DELETES: expected a number of objects or a share of the site (10%), got "lots"',
  ],
  [
    { ...SITE, SITE_UPLOAD_CONCURRENCY: '0' },
    'SITE_UPLOAD_CONCURRENCY: expected a whole number of 1 or more, got "0"',
  ],
  [
    { ...SITE, CDN_PURGE_URL: 'https://cdn.example/purge', CDN_PURGE_BATCH: 'ten' },
    'CDN_PURGE_BATCH: expected a whole number of 1 or more, got ten',
  ],
])('%j stops the server: %s', (env, problem) => {
  expect(problemOf(env)).toBe(problem);
});
