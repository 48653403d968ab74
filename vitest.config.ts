import { defineConfig } from 'vitest/config';
import { TEST_PASSWORD_HASH_COST } from './tests/helpers/password-cost.ts';

// One run, five suites: unit (fast, no I/O beyond temp files), integration (real files, the Hono
// app in-process and over HTTP, on SQLite), postgres (the store's contract tests and the
// integration tests of everything that stores, again on a throwaway PostgreSQL: scripts/postgres.mjs),
// s3 (object storage, on a throwaway S3 server: scripts/s3-server.mjs),
// e2e (the production build, fetched raw and driven in Chromium; with it the several-instance
// test, tests/e2e/bucket-instances.test.ts, which starts PostgreSQL, the S3 server and haproxy of
// its own).
/**
 * The integration tests that run on PostgreSQL too: everything the store keeps. The few about the
 * SQLite file itself (its backup, its lock, its mode) skip themselves there or are not listed.
 */
export const POSTGRES_SUITE = [
  'tests/integration/store/**/*.test.ts',
  'tests/integration/accounts/**/*.test.ts',
  'tests/integration/member-data/**/*.test.ts',
  'tests/integration/messages/**/*.test.ts',
  'tests/integration/push/**/*.test.ts',
  'tests/integration/moderation/**/*.test.ts',
  'tests/integration/search/**/*.test.ts',
  'tests/integration/saved-searches/**/*.test.ts',
  'tests/integration/publishing.test.ts',
  'tests/integration/publishing-photos*.test.ts',
  'tests/integration/publishing-transparency.test.ts',
  'tests/integration/posting/**/*.test.ts',
  'tests/integration/reports/**/*.test.ts',
  'tests/integration/operations/**/*.test.ts',
  'tests/integration/photos/sweeps.test.ts',
  'tests/integration/verification/**/*.test.ts',
  'tests/integration/age-assurance/**/*.test.ts',
  'tests/integration/server/age-check.test.ts',
  'tests/integration/server/client-address.test.ts',
  'tests/integration/server/form-refusals.test.ts',
  'tests/integration/server/route-ids.test.ts',
  'tests/integration/server/hashing-pool.test.ts',
  'tests/integration/server/headers.test.ts',
  'tests/integration/server/migrations.test.ts',
  'tests/integration/server/sign-in-backoff.test.ts',
];

/**
 * The S3 suite: object storage and photos in a bucket (tests/s3/; the photo storage's contract
 * tests run there on the bucket kind), against one throwaway S3 server (scripts/s3-server.mjs).
 */
export const S3_SUITE = ['tests/s3/**/*.test.ts'];

const FILE_ISOLATION = 'tests/helpers/file-isolation.ts';

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    // Two test files at a time: Vitest's default on 2 cores is one (cores − 1), and a test often
    // waits on a child process (a build, Chromium, PostgreSQL, a photo worker), which a second file
    // fills. The e2e files run first, two at a time (each drives a Chromium and often a server and
    // a build of its own: a third crowds them); then the others, three at a time (0.94 of the time
    // of two, measured). Either way the two cores are 97–98 % busy (docs/benchmarks.md).
    maxWorkers: 2,
    // Production hashes passwords at 2^16 (64 MiB, ~50 ms here); tests at 2^10: still scrypt, one
    // sixteenth of the time. The hashing pool's own test sets its cost itself.
    env: { PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST) },
    // Every file shares its worker's modules (the app's module graph imported once a worker
    // rather than once a file: 0.75 s a file, most of an integration file's time);
    // tests/helpers/file-isolation.ts puts back what a file changes in the process.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          isolate: false,
          setupFiles: [FILE_ISOLATION],
          // With the e2e files (Vitest takes a group's projects by name: e2e, then unit), whose
          // last one would otherwise run alone: the unit files fill the other worker meanwhile.
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          isolate: false,
          setupFiles: [FILE_ISOLATION],
          sequence: { groupOrder: 1 },
          maxWorkers: 3,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: POSTGRES_SUITE,
          isolate: false,
          setupFiles: [FILE_ISOLATION],
          globalSetup: ['tests/helpers/postgres-global-setup.ts'],
          sequence: { groupOrder: 1 },
          maxWorkers: 3,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 's3',
          include: S3_SUITE,
          isolate: false,
          setupFiles: [FILE_ISOLATION],
          globalSetup: ['tests/helpers/s3-global-setup.ts'],
          sequence: { groupOrder: 1 },
          maxWorkers: 3,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          isolate: false,
          setupFiles: [FILE_ISOLATION],
          sequence: { groupOrder: 0 },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
