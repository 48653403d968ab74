// The server's publisher (publisher.ts): runs the incremental build of the site it serves, the
// build's own steps as `npm run build` runs them ({out}/server/build.mjs, pipeline/build.ts),
// without Vite: a publish never rebuilds the client assets, it compiles the content with the live
// member ads of the database and rewrites the pages that changed (each file replaced whole).
// - One build at a time. Requests that arrive while a build runs wait for the next one, which
//   takes them all: five approvals during a build make one more build, not five.
// - A request resolves once a build that started after it has finished, with its outcome; a
//   failure is logged in one line and answered, never thrown: the server goes on serving the
//   site as it was.
// - Daily: after midnight UTC, and at start-up when the site was built for another day, the site
//   is published for the new date, so expired ads leave (`startDaily()`).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useCompiledContentDir } from '../../core/content/index.ts';
import { COMPILE_CACHE_FOLDER } from '../../pipeline/prerender/output-layout.ts';
import type { StoreLocation } from '../../store/store-location.ts';
import { oneRunAtATime, reasonsText, type Publisher, type PublishOutcome } from './publisher.ts';
import { utcDay } from '../../core/days.ts';
import { warmBuilds, type WarmBuildEnd } from './warm-builds.ts';

export interface BuildPublisherSettings {
  /** The build's output folder: the site is {outDir}/site, the build's steps {outDir}/server. */
  outDir: string;
  /** The server's database: its live member ads are published (read by the build, read-only). */
  database: StoreLocation;
  /** content/ (default: CONTENT_DIR, or content/ in the working folder). */
  contentDir?: string;
  /** The compiled content the build writes and the server reads (default: COMPILED_CONTENT_DIR, or .content/). */
  compiledContentDir?: string;
  /** The day to publish for, asked at each build. Default: BUILD_DATE if set, else today (UTC). */
  buildDate?: () => string;
  /** Where the one line a publish goes. Default: console.log (failures: console.error). */
  log?: (line: string) => void;
  /** Told of every build's length and outcome (the server's metrics: server/operations/metrics.ts). */
  onPublished?: (seconds: number, ok: boolean) => void;
  /** Runs after each build that succeeded, as part of the publish (the upload to SITE_BUCKET). */
  afterBuild?: () => Promise<PublishOutcome>;
  /**
   * A small site's builds run in a Node kept between publishes (warm-builds.ts), ended after this
   * many ms without a publish; 0: each build in a Node of its own, as `npm run build` runs it.
   * Default: 15 minutes (the server reads PUBLISHER_WARM_IDLE_SECONDS: warmIdleFromEnv).
   */
  warmIdleMs?: number;
}

export interface BuildPublisher extends Publisher {
  /** Publishes now when the site was built for another day, then after every midnight (UTC). */
  startDaily(): void;
  /** Stops the daily publish; a build under way runs to its end (`idle()` waits for it). */
  stop(): void;
  /** Resolves once no build runs or waits. */
  idle(): Promise<void>;
  /** Builds run so far. */
  readonly builds: number;
  /** Builds that succeeded so far. */
  readonly published: number;
  /** Builds run in the warm publisher (warm-builds.ts), so far. */
  readonly warmBuilds: number;
  /** The last build's outcome, once one has run. */
  readonly lastOutcome: PublishOutcome | undefined;
}

/** The child's last lines kept, to say why a build failed. */
const KEPT_LINES = 20;
/** After midnight, a little later: the clock of the machine and the date agree. */
const AFTER_MIDNIGHT_MS = 5_000;
/** How long the warm publisher waits for the next publish before it ends. */
const WARM_IDLE_MS = 15 * 60_000;

/** The warm publisher's idle time from PUBLISHER_WARM_IDLE_SECONDS (0: none), else the default. */
export function warmIdleFromEnv(env: NodeJS.ProcessEnv): { ms: number } | { problem: string } {
  const text = env.PUBLISHER_WARM_IDLE_SECONDS?.trim();
  if (!text) return { ms: WARM_IDLE_MS };
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds < 0)
    return {
      problem: `PUBLISHER_WARM_IDLE_SECONDS must be a number of seconds, 0 or more (got "${text}")`,
    };
  return { ms: seconds * 1000 };
}

export function buildPublisher(settings: BuildPublisherSettings): BuildPublisher {
  const contentDir =
    settings.contentDir ?? process.env.CONTENT_DIR ?? join(process.cwd(), 'content');
  const compiledDir =
    settings.compiledContentDir ??
    process.env.COMPILED_CONTENT_DIR ??
    join(process.cwd(), '.content');
  const buildDate = settings.buildDate ?? (() => process.env.BUILD_DATE || utcDay());
  const info = settings.log ?? ((line: string) => console.log(line));
  const problem = settings.log ?? ((line: string) => console.error(line));
  const stepsDir = join(settings.outDir, 'server');

  let timer: NodeJS.Timeout | undefined;
  let published = 0;
  let lastOutcome: PublishOutcome | undefined;
  const runs = oneRunAtATime(build);

  async function build(reasons: readonly string[]): Promise<PublishOutcome> {
    const date = buildDate();
    const why = reasonsText(reasons);
    const started = performance.now();
    let outcome: PublishOutcome;
    try {
      outcome = await runBuild(date);
      if (outcome.ok) {
        // The server's member pages read the compiled content: the new one from now on.
        useCompiledContentDir(compiledDir);
        if (settings.afterBuild) outcome = await settings.afterBuild();
      }
    } catch (error) {
      outcome = { ok: false, message: (error as Error).message };
    }
    const seconds = (performance.now() - started) / 1000;
    const took = seconds.toFixed(1);
    settings.onPublished?.(seconds, outcome.ok);
    lastOutcome = outcome;
    if (outcome.ok) {
      published += 1;
      info(`Published the site for ${date} in ${took} s (${why}).`);
    } else {
      problem(`Publishing for ${date} failed after ${took} s (${why}): ${outcome.message}`);
    }
    return outcome;
  }

  // The build's last lines, to say why one failed; its warnings reach the operator at once.
  const lines: string[] = [];
  const keep = (line: string) => {
    if (line.trim() === '') return;
    // A member ad left out for a problem of its own: the operator should hear of it.
    if (line.startsWith('Warning: ')) problem(line);
    lines.push(line);
    if (lines.length > KEPT_LINES) lines.shift();
  };
  const warmIdleMs = settings.warmIdleMs ?? WARM_IDLE_MS;
  const warm =
    warmIdleMs > 0
      ? warmBuilds({
          entry: join(stepsDir, 'publish-worker.mjs'),
          onLine: keep,
          idleMs: warmIdleMs,
        })
      : undefined;

  async function runBuild(date: string): Promise<PublishOutcome> {
    const entry = join(stepsDir, 'build.mjs');
    if (!existsSync(entry))
      return {
        ok: false,
        message: `the build's steps are not in ${stepsDir}; run npm run build first`,
      };
    // The stamp of the sources Vite built from: the same as the last build's, so the pages are
    // rendered again only where their data changed.
    const stampFile = join(stepsDir, 'sources-stamp.txt');
    const sources = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : '';
    const env: NodeJS.ProcessEnv = { ...process.env };
    // As scripts/build.mjs does: Vike stands aside when it sees a test runner's markers.
    for (const key of Object.keys(env))
      if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete env[key];
    // PostgreSQL's URL goes in the environment, where its password is not in the process list.
    delete env.DATABASE_URL;
    if (settings.database.url) env.DATABASE_URL = settings.database.url;
    Object.assign(env, {
      LOCALBOARD_ROOT: process.env.LOCALBOARD_ROOT ?? process.cwd(),
      LOCALBOARD_STEPS_DIR: stepsDir,
      LOCALBOARD_SOURCES: sources,
      // The build's compiled modules, as its steps keep them (pipeline/build-plan.ts).
      NODE_COMPILE_CACHE: join(settings.outDir, COMPILE_CACHE_FOLDER),
    });
    const args = [
      ...['--date', date, '--content', contentDir, '--out', settings.outDir],
      ...['--cache', compiledDir],
      ...(settings.database.path && !settings.database.url
        ? ['--database', settings.database.path]
        : []),
    ];
    lines.length = 0;
    // A build whose steps predate the warm publisher runs as before.
    const end =
      warm && existsSync(join(stepsDir, 'publish-worker.mjs')) ? await warm.run(args, env) : 'cold';
    const { code, signal } = end === 'cold' ? await spawnBuild(entry, args, env) : end;
    if (code === 0) return { ok: true };
    return { ok: false, message: failureOf(lines, code, signal) };
  }

  /** The build in a Node of its own, as `npm run build` runs it; how it ended. */
  function spawnBuild(entry: string, args: string[], env: NodeJS.ProcessEnv) {
    return new Promise<WarmBuildEnd>((resolve) => {
      const child = spawn(process.execPath, ['--enable-source-maps', entry, ...args], {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'pipe'],
        env,
      });
      for (const stream of [child.stdout, child.stderr])
        createInterface({ input: stream, crlfDelay: Infinity }).on('line', keep);
      child.once('error', (error) => {
        keep(error.message);
        resolve({ code: 1, signal: null });
      });
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
  }

  function scheduleDaily(): void {
    const now = new Date();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    timer = setTimeout(
      () => {
        void publisher.publish(`daily publish for ${buildDate()}`);
        scheduleDaily();
      },
      midnight - now.getTime() + AFTER_MIDNIGHT_MS,
    );
    timer.unref();
  }

  const publisher: BuildPublisher = {
    publish: runs.publish,
    startDaily() {
      const built = siteBuildDate(settings.outDir);
      if (built !== buildDate())
        void publisher.publish(
          `the site was built for ${built ?? 'no date'}; today is ${buildDate()}`,
        );
      if (!timer) scheduleDaily();
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      warm?.stop();
    },
    idle: runs.idle,
    get builds() {
      return runs.runs;
    },
    get published() {
      return published;
    },
    get warmBuilds() {
      return warm?.built ?? 0;
    },
    get lastOutcome() {
      return lastOutcome;
    },
  };
  return publisher;
}

/** The day the site in `outDir` was last built for ({outDir}/build-stamp.json), if it says. */
export function siteBuildDate(outDir: string): string | undefined {
  try {
    const stamp = JSON.parse(readFileSync(join(outDir, 'build-stamp.json'), 'utf8')) as {
      buildDate?: unknown;
    };
    return typeof stamp.buildDate === 'string' ? stamp.buildDate : undefined;
  } catch {
    return undefined;
  }
}

/** Why a build failed, in one line: its content problems, or its last words. */
function failureOf(lines: readonly string[], code: number | null, signal: string | null): string {
  const said = lines.filter((line) => !line.startsWith('• ') && !line.startsWith('Warning: '));
  const how = signal ? `stopped by ${signal}` : `exit code ${code}`;
  if (said.length === 0) return `the build ended (${how})`;
  // The content problems name file and line; the summary line after them says how many.
  const summary = said.findIndex((line) => /content problems?; nothing was built/.test(line));
  const shown = summary > 0 ? said.slice(0, summary + 1) : said.slice(-3);
  return `${shown.join(' | ')} (${how})`;
}
