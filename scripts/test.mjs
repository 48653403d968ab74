// `npm test`: finds Chromium, runs every suite (unit, integration, e2e) in one Vitest run and
// ends with one line `N passed, N failed`. Extra arguments go to Vitest (e.g. `--project unit`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(
    `Chromium was not found at ${chromium}; the end-to-end tests need it. Install it with:`,
  );
  console.error('  apt-get update && apt-get install -y chromium');
  console.error('(or point CHROMIUM_PATH at a Chromium binary).');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const reportDir = mkdtempSync(join(tmpdir(), 'localboard-test-'));
const reportFile = join(reportDir, 'report.json');
const vitest = spawnSync(
  process.execPath,
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reportFile}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', env: { ...process.env, CHROMIUM_PATH: chromium } },
);

let passed = 0;
let failed = 0;
if (existsSync(reportFile)) {
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  passed = report.numPassedTests;
  failed = report.numFailedTests;
  // A suite that fails to load counts as a failure even though none of its tests ran.
  if (vitest.status !== 0 && failed === 0) failed = 1;
} else if (vitest.status !== 0) {
  failed = 1;
}
rmSync(reportDir, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(vitest.status ?? 1);
