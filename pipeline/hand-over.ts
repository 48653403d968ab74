// The build's steps run one after the other in one process (docs/benchmarks.md): the
// starter becomes the content step and the content step becomes the pages step (`process.execve`,
// Node 22.15 and 24), so no Node process ever waits beside another and the build's memory at any
// moment is one step's. The steps still to run travel in the environment (NEXT_STEPS_VARIABLE);
// each step ends with `continueBuild`, which becomes the next one if there is one. ru_maxrss and
// the process id carry over an execve, so to whoever started the build it is one process whose
// exit code is the last step's (or the first failing one's: a step that fails exits).
import { fileURLToPath } from 'node:url';
import { buildStepUrl, STEPS_DIR_VARIABLE } from './build-steps.ts';
import { HANDED_OVER_AT_VARIABLE, handedOverNow } from './step-timings.ts';
import { finishBuild, type BuildFinish } from './finish-build.ts';

/** A step as Node runs it: what the "• Step" line says, its Node arguments, its environment. */
export interface StepCommand {
  title: string;
  /** Which of the build's steps. */
  step: StepName;
  /** Node's arguments after the executable: flags, the step's script, the step's arguments. */
  args: string[];
  /** The step's script and its own arguments (the end of `args`). */
  script: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export type StepName = 'compile-content' | 'prerender-pages';

/** Each step's own code, to run in this process (runStepHere), loaded when first asked for. */
const STEP_RUNS: Record<StepName, (root: string) => Promise<void>> = {
  'compile-content': async (root) => {
    await (await import('./compile/compile-content-step.ts')).compileContentStep(root);
  },
  'prerender-pages': async () =>
    (await import('./prerender/prerender-pages-step.ts')).prerenderPagesStep(),
};

export const NEXT_STEPS_VARIABLE = 'LOCALBOARD_BUILD_NEXT_STEPS';

/** Whether this Node can replace its process by another (execve; not before 22.15). */
export const canHandOver = (): boolean => typeof process.execve === 'function';

/** The command of one of the build's own steps (pipeline/build-steps.ts). */
export function buildStepCommand(
  title: string,
  step: StepName,
  nodeFlags: readonly string[],
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): StepCommand {
  const script = [fileURLToPath(buildStepUrl(step)), ...args];
  return {
    title,
    step,
    args: [...nodeFlags, ...script],
    script,
    env: { ...env, [STEPS_DIR_VARIABLE]: process.env[STEPS_DIR_VARIABLE], BUILD_STEP: title },
    cwd,
  };
}

/** This process becomes the first of `steps`, handing it the rest: it never returns. */
export function becomeSteps([first, ...rest]: readonly StepCommand[]): never {
  if (!first) throw new Error('becomeSteps needs a step');
  console.log(`• ${first.title}`);
  const env: NodeJS.ProcessEnv = { ...first.env };
  delete env[NEXT_STEPS_VARIABLE];
  if (rest.length > 0) env[NEXT_STEPS_VARIABLE] = JSON.stringify(rest);
  // The next step counts its start-up from here (step-timings.ts).
  env[HANDED_OVER_AT_VARIABLE] = handedOverNow();
  process.chdir(first.cwd);
  process.execve!(process.execPath, [process.execPath, ...first.args], env);
  throw new Error('process.execve returned');
}

/**
 * Runs `step` in this process (a small site's publish: no Node to start, no modules to load
 * twice): its code runs with the step's arguments and environment, as its own Node would see
 * them. A failing step exits the process. Node's flags of the step (its memory caps) do not
 * apply: for sites far from the budget only.
 */
export async function runStepHere(step: StepCommand): Promise<void> {
  console.log(`• ${step.title}`);
  takeOverHere(step.script, step.env, step.cwd);
  delete process.env[NEXT_STEPS_VARIABLE];
  await STEP_RUNS[step.step](step.cwd);
}

/**
 * This process now runs `script` (its file and arguments) with `env` as its whole environment, in
 * `cwd`, as a Node started for it would (the hand-over's time included): for code that reads its
 * settings from the process, run here rather than in a Node of its own.
 */
export function takeOverHere(script: readonly string[], env: NodeJS.ProcessEnv, cwd: string) {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env, { [HANDED_OVER_AT_VARIABLE]: handedOverNow() });
  process.argv = [process.execPath, ...script];
  process.chdir(cwd);
}

/** Runs every step of a build in this process, then finishes it (pipeline/finish-build.ts). */
export async function runBuildHere(steps: readonly StepCommand[], finish: BuildFinish) {
  for (const step of steps) await runStepHere(step);
  await finishBuild(finish);
}

/** At the end of a step: becomes the next step the build handed over, if any; else returns. */
export function continueBuild(env: NodeJS.ProcessEnv = process.env): void {
  const json = env[NEXT_STEPS_VARIABLE];
  if (!json) return;
  const [next, ...rest] = JSON.parse(json) as StepCommand[];
  if (!next) return;
  becomeSteps([next, ...rest]);
}
