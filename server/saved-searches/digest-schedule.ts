// The server's saved-search digests (docs/product.md section 11): `npm run alerts -- send`
// (scripts/alerts.ts) run as a child process of the server, a few minutes after it starts and
// then every hour. Each saved search is mailed at most once a day (its digest is claimed in the
// database, server/saved-searches/digest.ts), so looking every hour means a restart or a deploy never
// skips a day, and instances sharing a PostgreSQL database send each digest once between them.
// A child process, at nice 10, so the matching (one search index query a saved search, 100,000
// of them at 10,000 members) never runs on the server's event loop or competes with it for a
// core: pages are answered first. One run at a time; a run still going when the server stops
// finishes on its own (its claims are its own).
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How to start the digest: node [execArgv] file send. */
export interface DigestCommand {
  file: string;
  execArgv: readonly string[];
  cwd?: string;
}

/** The digest from the sources: scripts/alerts.ts under tsx (tests, the dev server). */
export function sourceDigestCommand(): DigestCommand {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return { file: join(root, 'scripts', 'alerts.ts'), execArgv: ['--import', 'tsx'], cwd: root };
}

/** The digest built beside the server ({out}/server/alerts.mjs). */
export const bundledDigestCommand = (file: string): DigestCommand => ({ file, execArgv: [] });

export const DIGEST_FIRST_RUN_MS = 5 * 60 * 1000;
export const DIGEST_EVERY_MS = 60 * 60 * 1000;
/** Below the server's priority: a page waits for no digest. */
const NICE = 10;

export interface DigestScheduleOptions {
  command: DigestCommand;
  /** The child's environment (default: the server's own, so the same database, index and mail). */
  env?: NodeJS.ProcessEnv;
  firstRunMs?: number;
  everyMs?: number;
  log?: (line: string) => void;
}

export interface DigestSchedule {
  /** Starts a run now, or joins the one under way; resolves with its exit code. */
  runNow(): Promise<number | null>;
  /** No more runs (a run under way goes on). */
  stop(): void;
}

export function scheduleDigests(options: DigestScheduleOptions): DigestSchedule {
  const log = options.log ?? ((line: string) => console.error(line));
  let running: Promise<number | null> | undefined;
  const runNow = () => {
    running ??= new Promise<number | null>((done) => {
      const { command } = options;
      const child = spawn(process.execPath, [...command.execArgv, command.file, 'send'], {
        cwd: command.cwd,
        env: options.env ?? process.env,
        // Its one line (or its error) goes where the server's go.
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      if (child.pid !== undefined) {
        try {
          setPriority(child.pid, NICE);
        } catch {
          // Not allowed here: it runs at the server's priority.
        }
      }
      child.once('error', (error) => {
        log(`Saved-search digests could not start: ${error.message}`);
        done(null);
      });
      child.once('exit', (code, signal) => {
        if (code !== 0)
          log(`Saved-search digests stopped: ${signal ? `signal ${signal}` : `exit code ${code}`}`);
        done(code);
      });
    }).finally(() => {
      running = undefined;
    });
    return running;
  };
  const first = setTimeout(() => {
    void runNow();
    every.refresh();
  }, options.firstRunMs ?? DIGEST_FIRST_RUN_MS);
  const every = setInterval(() => void runNow(), options.everyMs ?? DIGEST_EVERY_MS);
  first.unref();
  every.unref();
  return {
    runNow,
    stop() {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}
