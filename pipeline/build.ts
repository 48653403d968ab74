// `npm run build`: validates and compiles the content and prerenders every page into {out}/site.
//   --date YYYY-MM-DD   publication day (which ads are live); default today, or BUILD_DATE
//   --if-needed         skip when nothing the build reads has changed since the last build; with
//                       SITE_BUCKET set (npm start on an instance: README "Instances that start in
//                       seconds"), skip the content and the pages altogether: the instance that
//                       publishes builds them when it takes the lock, the others read its releases
//   --full              build everything: Vite's output, the compiled content and every page
//   --content DIR       content folder (default content/)
//   --out DIR           where everything goes (default dist/): the site in DIR/site, Vite's output
//                       in DIR/client and DIR/server, the build manifest beside them
//   --cache DIR         compiled content (default .content/)
//   --database FILE     the server's SQLite database, whose live member ads are published beside
//                       the CSV ads (default DATABASE_PATH, or data/localboard.sqlite); none if it
//                       is absent. Its hidden_ads (reports) leave those ads out, editors' ads included
//   --database-url URL  the server's PostgreSQL database instead (postgres://…); DATABASE_URL in
//                       the environment does the same and keeps the password off the command line.
//                       Either database is opened read-only and read in one snapshot (no migration).
//                       Order: --database-url, --database, DATABASE_URL, DATABASE_PATH
// It runs from Vite's server build ({out}/server/build.mjs), which scripts/build.mjs brings up to
// date first. The steps run one after the other, each a fresh Node, so that their memory never adds
// up and none inherits another's: the content (scripts/compile-content.ts), then the pages
// (scripts/prerender-pages.ts). This process becomes each in turn (hand-over.ts); where Node cannot
// (before 22.15) it runs them as children and waits. A small site (build-plan.ts) runs both in
// this process instead, unless LOCALBOARD_BUILD_STEPS_APART=1 (bench/publish-latency.ts compares
// the two). Builds into different output folders share nothing. What the build will do comes from
// build-plan.ts, which the server's warm publisher (publish-worker.ts) plans each publish with.
import { spawn } from 'node:child_process';
import { becomeSteps, canHandOver, runBuildHere, type StepCommand } from './hand-over.ts';
import { placeClientAssets, planBuild } from './build-plan.ts';
import { finishBuild, FINISH_VARIABLE } from './finish-build.ts';
import { stepTimer } from './step-timings.ts';

const timer = stepTimer('the start');
if (process.argv.includes('--if-needed') && process.env.SITE_BUCKET) {
  console.log(
    '• SITE_BUCKET is set: no content compiled, no page written here. The instance holding the ' +
      "publisher's lock builds the site; every other reads its releases.",
  );
  process.exit(0);
}
const plan = await planBuild(process.argv, process.env);
if (plan.upToDate) {
  console.log(`The build in ${plan.outDir} is up to date (content for ${plan.buildDate}).`);
  process.exit(0);
}
timer.mark('stamps');
placeClientAssets(plan);
timer.mark('client assets');
console.log(timer.line());
const { steps, finish } = plan;
// A small site's publish runs both steps in this process: two Node start-ups and their modules
// were most of its time (docs/benchmarks.md, "Publishing speed"), and its memory is far from the
// budget. Otherwise this process becomes the content step, which becomes the pages step, which
// finishes the build (hand-over.ts): no step runs beside a waiting one, and the budget counts
// every process at once.
if (plan.inOneNode) {
  await runBuildHere(steps, finish);
  process.exit(0);
}
if (canHandOver()) {
  steps.at(-1)!.env[FINISH_VARIABLE] = JSON.stringify(finish);
  becomeSteps(steps);
}
for (const step of steps) exitIfFailed(await run(step));
await finishBuild(finish);

/** Runs one step in its own Node process (where Node cannot hand over); its exit code. */
async function run(step: StepCommand): Promise<number> {
  console.log(`• ${step.title}`);
  const child = spawn(process.execPath, step.args, {
    cwd: step.cwd,
    stdio: 'inherit',
    env: step.env,
  });
  return new Promise<number>((resolvePromise) =>
    child.once('exit', (exitCode) => resolvePromise(exitCode ?? 1)),
  );
}

/** A step that failed ends the build, with its exit code (it has said what went wrong). */
function exitIfFailed(code: number): void {
  if (code !== 0) process.exit(code);
}
