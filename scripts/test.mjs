// `npm test`: finds Chromium (or installs it where it can: scripts/chromium.mjs), exiftool (the
// photo tests read tags with it: scripts/exiftool.mjs), PostgreSQL (scripts/postgres.mjs) and an
// S3 server (Ceph's radosgw: scripts/s3-server.mjs) and haproxy (for the several-instance test,
// tests/e2e/bucket-instances.test.ts: scripts/haproxy.mjs), runs every suite (unit, integration,
// postgres, s3, e2e) in one Vitest run and ends with one line `N passed, N failed (PostgreSQL
// suite: N passed, N failed; S3 suite: N passed, N failed; Node.js {version})`. Without a
// PostgreSQL it can start, the postgres suite is left out and one line says why, unless
// LOCALBOARD_REQUIRE_POSTGRES=1 (CI), which makes that a failure; the same for the s3 suite and
// LOCALBOARD_REQUIRE_S3=1. Without Chromium or exiftool it stops with the command that fixes it.
// The web app's installability test needs a whole Chromium beside the headless shell (installed
// as the others are when it can be); without one, that test is left out and one line says why.
// Extra arguments go to Vitest (e.g. `--project unit`).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureChromium, ensureWholeChromium } from './chromium.mjs';
import { ensureExiftool } from './exiftool.mjs';
import { ensureHaproxy } from './haproxy.mjs';
import { isSupportedNode, unsupportedNodeLine } from '../core/node-runtime.mjs';
import { ensurePostgres } from './postgres.mjs';
import { ensureS3Server } from './s3-server.mjs';
import { makeTestTemporaryFolder } from './test-temporary-folder.mjs';

if (!isSupportedNode()) {
  console.error(unsupportedNodeLine());
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const browser = ensureChromium();
if (!browser.path) {
  console.error(browser.problem);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const chromium = browser.path;

const exiftool = ensureExiftool();
if (!exiftool.path) {
  console.error(exiftool.problem);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const args = process.argv.slice(2);
const leftOut = [];
/** A suite whose server is missing: left out with one line, or a failure where it is required. */
function leaveOut(project, name, problem, required) {
  if (required) {
    console.error(problem);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  console.log(`The ${name} suite is left out: ${problem}`);
  leftOut.push(project);
}
const postgres = ensurePostgres();
if (postgres.problem)
  leaveOut(
    'postgres',
    'PostgreSQL',
    postgres.problem,
    process.env.LOCALBOARD_REQUIRE_POSTGRES === '1',
  );
const s3 = ensureS3Server();
if (s3.problem) leaveOut('s3', 'S3', s3.problem, process.env.LOCALBOARD_REQUIRE_S3 === '1');
if (leftOut.length > 0 && !args.some((arg) => arg.startsWith('--project')))
  for (const project of ['unit', 'integration', 'postgres', 's3', 'e2e'])
    if (!leftOut.includes(project)) args.push('--project', project);

// The web app's installability test (in the e2e suite) needs a whole Chromium, not the headless
// shell (scripts/chromium.mjs says why); without one it skips itself, and one line says why.
const wholeChromium = ensureWholeChromium();
if (wholeChromium.problem)
  console.log(`The web app's installability test is left out: ${wholeChromium.problem}`);

// The several-instance test (in the e2e suite) skips itself without haproxy; one line says why.
const haproxy = ensureHaproxy();
if (haproxy.problem) console.log(`The several-instance test is left out: ${haproxy.problem}`);

const temporary = makeTestTemporaryFolder();
console.log(`Temporary files ${temporary.where}.`);
// Ctrl-C reaches Vitest too, which stops; this process then removes the folder and reports.
process.on('SIGINT', () => {});
const reportFile = join(temporary.dir, 'report.json');
const countsFile = join(temporary.dir, 'suites.json');
const vitest = spawnSync(
  process.execPath,
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reportFile}`,
    '--reporter=./scripts/suite-counts-reporter.mjs',
    ...args,
  ],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      CHROMIUM_PATH: chromium,
      EXIFTOOL_PATH: exiftool.path,
      SUITE_COUNTS_FILE: countsFile,
      TMPDIR: temporary.dir,
      ...(postgres.binDir ? { POSTGRES_BIN_DIR: postgres.binDir } : {}),
      ...(s3.binDir ? { S3_SERVER_BIN_DIR: s3.binDir } : {}),
      ...(haproxy.path ? { HAPROXY_PATH: haproxy.path } : {}),
      ...(wholeChromium.path ? { WHOLE_CHROMIUM_PATH: wholeChromium.path } : {}),
    },
  },
);

let passed = 0;
let failed = 0;
let onPostgres = { passed: 0, failed: 0 };
let onS3 = { passed: 0, failed: 0 };
if (existsSync(countsFile)) {
  const counts = JSON.parse(readFileSync(countsFile, 'utf8'));
  onPostgres = counts.postgres ?? onPostgres;
  onS3 = counts.s3 ?? onS3;
}
if (existsSync(reportFile)) {
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  passed = report.numPassedTests;
  failed = report.numFailedTests;
  // A suite that fails to load counts as a failure even though none of its tests ran.
  if (vitest.status !== 0 && failed === 0) failed = 1;
} else if (vitest.status !== 0) {
  failed = 1;
}
rmSync(temporary.dir, { recursive: true, force: true });
console.log(
  `${passed} passed, ${failed} failed (PostgreSQL suite: ${
    postgres.problem ? 'left out' : `${onPostgres.passed} passed, ${onPostgres.failed} failed`
  }; S3 suite: ${s3.problem ? 'left out' : `${onS3.passed} passed, ${onS3.failed} failed`}; Node.js ${process.versions.node})`,
);
process.exit(vitest.status ?? 1);
