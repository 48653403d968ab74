// `npm test`: finds Chromium (or installs it where it can: scripts/chromium.mjs), runs every suite
// (unit, integration, e2e) in one Vitest run and ends with one line `N passed, N failed`.
// Extra arguments go to Vitest (e.g. `--project unit`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureChromium } from './chromium.mjs';

const browser = ensureChromium();
if (!browser.path) {
  console.error(browser.problem);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const chromium = browser.path;

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
