// `npm test`: finds Chromium (or installs it where it can: scripts/chromium.mjs), exiftool (the
// photo tests read tags with it: scripts/exiftool.mjs) and PostgreSQL (scripts/postgres.mjs),
// runs every suite (unit, integration, postgres, e2e) in one Vitest run and ends with one line
// `N passed, N failed (PostgreSQL suite: N passed, N failed; Node.js {version})`. Without a PostgreSQL it can start,
// the postgres suite is left out and one line says why, unless LOCALBOARD_REQUIRE_POSTGRES=1 (CI),
// which makes that a failure. Without Chromium or exiftool it stops with the command that fixes it.
// Extra arguments go to Vitest (e.g. `--project unit`).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureChromium } from './chromium.mjs';
import { ensureExiftool } from './exiftool.mjs';
import { isSupportedNode, unsupportedNodeLine } from '../core/node-runtime.mjs';
import { ensurePostgres } from './postgres.mjs';
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
const postgres = ensurePostgres();
if (postgres.problem) {
  if (process.env.LOCALBOARD_REQUIRE_POSTGRES === '1') {
    console.error(postgres.problem);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  console.log(`The PostgreSQL suite is left out: ${postgres.problem}`);
  if (!args.some((arg) => arg.startsWith('--project')))
    args.push('--project', 'unit', '--project', 'integration', '--project', 'e2e');
}

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
    },
  },
);

let passed = 0;
let failed = 0;
let onPostgres = { passed: 0, failed: 0 };
if (existsSync(countsFile))
  onPostgres = JSON.parse(readFileSync(countsFile, 'utf8')).postgres ?? onPostgres;
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
  }; Node.js ${process.versions.node})`,
);
process.exit(vitest.status ?? 1);
