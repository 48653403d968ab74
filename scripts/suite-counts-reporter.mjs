// A Vitest reporter for `npm test` (scripts/test.mjs): passed and failed tests per suite (project),
// written as JSON to SUITE_COUNTS_FILE when the run ends, so that the summary line can give the
// PostgreSQL and S3 suites' counts apart.
import { writeFileSync } from 'node:fs';

export default class SuiteCountsReporter {
  onTestRunEnd(testModules) {
    const counts = {};
    for (const module of testModules) {
      const suite = (counts[module.project.name] ??= { passed: 0, failed: 0 });
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') suite.passed++;
        if (state === 'failed') suite.failed++;
      }
    }
    if (process.env.SUITE_COUNTS_FILE)
      writeFileSync(process.env.SUITE_COUNTS_FILE, JSON.stringify(counts));
  }
}
