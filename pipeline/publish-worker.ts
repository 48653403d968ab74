// The warm publisher: a Node process the server keeps between publishes
// (server/publishing/warm-builds.ts), which runs a small site's build on request with its modules
// already loaded and compiled, instead of starting a Node and loading them for every approval
// (docs/benchmarks.md, "Publishing speed": about half a publish's time). Each request is a build
// as `{out}/server/build.mjs` would run it, with that command's arguments and environment
// (pipeline/build-plan.ts plans it the same way); the answer says whether it ran here or, being
// no small site's publish (a first build, --full, a large site), must run as a build of its own
// (`cold`), whose steps each get a fresh Node within the memory budget.
// A step that fails ends this process (exit code 1, having said why), as it ends a build of its
// own: the server reads the failure from the exit and starts a new process for the next publish.
// The process ends when the server closes the channel (disconnect), or when the server does.
import { placeClientAssets, planBuild } from './build-plan.ts';
import { runBuildHere, takeOverHere } from './hand-over.ts';
import { stepTimer } from './step-timings.ts';

/** A publish asked for: the build command's arguments (after the script) and environment. */
export interface PublishRequest {
  id: number;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** The answer: built here, nothing to build, or to be built by a Node of its own. */
export interface PublishAnswer {
  id: number;
  done: 'built' | 'up to date' | 'cold';
}

const send = (answer: PublishAnswer) =>
  new Promise<void>((resolve, reject) =>
    process.send!(answer, undefined, undefined, (error) => (error ? reject(error) : resolve())),
  );

async function publish({ id, args, env, cwd }: PublishRequest): Promise<void> {
  takeOverHere(['build.mjs', ...args], env, cwd);
  const timer = stepTimer('the start');
  const plan = await planBuild(process.argv, process.env);
  if (plan.upToDate) return send({ id, done: 'up to date' });
  if (!plan.inOneNode) return send({ id, done: 'cold' });
  timer.mark('stamps');
  placeClientAssets(plan);
  timer.mark('client assets');
  console.log(timer.line());
  await runBuildHere(plan.steps, plan.finish);
  await send({ id, done: 'built' });
  // What the build held is garbage now: collected at once, the process waits small.
  (globalThis as { gc?: () => void }).gc?.();
}

if (!process.send)
  throw new Error('The publish worker runs as the server’s child, with an IPC channel');
// One publish at a time: the server sends the next only once this one answered.
process.on('message', (request: PublishRequest) => {
  publish(request).catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  });
});
process.on('disconnect', () => process.exit(0));
