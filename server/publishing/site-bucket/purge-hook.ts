// The CDN purge hook (docs/product.md section 6, "The site in a bucket"): after each upload, the
// URLs of what was written or removed are purged from the CDN in front of the bucket, so a change
// shows at once rather than when a cached copy runs out. CDNs take purges in batches and limit
// them (Cloudflare's free plan: 100 URLs a request, 5 requests a minute): URLs wait in a queue
// and go `batch` at a time, at most `perMinute` requests in any minute. That minute is the CDN's,
// whichever instance sends: each request takes its time from one budget (the store's,
// store/parts/purge-budget.ts, shared by every instance on the database) and waits for it, in this
// instance's queue, never holding up the request that asked for the purge. What was removed (an ad
// or a photo taken down) goes to the front of the queue: it is in the next request.
// The hook is an HTTP endpoint (CDN_PURGE_URL, POSTed CDN_PURGE_BODY with `{urls}` replaced by
// the URLs as a JSON array, Cloudflare's `{"files":{urls}}` by default) or a command
// (CDN_PURGE_COMMAND, run by /bin/sh with the URLs on its standard input, one a line).
import { spawn } from 'node:child_process';
import { nextPurgeAt, PURGE_WINDOW_MS } from '../../../core/purge-budget.ts';

export type PurgeTarget =
  | { kind: 'http'; url: string; body: string; authorization?: string }
  | { kind: 'command'; command: string };

export interface PurgeHookSettings {
  target: PurgeTarget;
  /** URLs a request (CDN_PURGE_BATCH, default 100). */
  batch?: number;
  /** Requests in any minute (CDN_PURGE_PER_MINUTE, default 5). */
  perMinute?: number;
  /**
   * Where the requests' times are kept: the store's purge budget, shared by every instance on the
   * database; by default this process's memory (purgeBudgetInMemory).
   */
  budget?: PurgeBudget;
  /** Where a failed purge is said. */
  log?: (line: string) => void;
  /** The clock (tests give a fake one). */
  clock?: { now(): number; sleep(ms: number): Promise<void> };
}

export interface PurgeHook {
  /** Queues `urls`; `urgent` ones (a takedown) go before everything waiting. */
  purge(urls: readonly string[], options?: { urgent?: boolean }): void;
  /** Resolves once the queue is empty and no request is under way. */
  idle(): Promise<void>;
}

/** When each purge request may go (store/parts/purge-budget.ts's PurgeBudgetStore is one). */
export interface PurgeBudget {
  /** Takes a request: when it may be sent (ms, `now` or later); the time is kept for it. */
  take(perMinute: number, now: number): Promise<number>;
}

export const DEFAULT_PURGE_BODY = '{"files":{urls}}';
/** A batch that failed this often is given up (and said). */
const ATTEMPTS = 3;

const realClock = {
  now: () => Date.now(),
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()),
};

/** The budget kept by this process alone (no store, or while the store cannot answer). */
export function purgeBudgetInMemory(): PurgeBudget {
  let latest: number[] = [];
  return {
    async take(perMinute, now) {
      const at = nextPurgeAt(latest, perMinute, now);
      latest = [at, ...latest.filter((time) => time > now - PURGE_WINDOW_MS)].slice(0, perMinute);
      return at;
    },
  };
}

export function purgeHook(settings: PurgeHookSettings): PurgeHook {
  const batch = settings.batch ?? 100;
  const perMinute = settings.perMinute ?? 5;
  const log = settings.log ?? ((line: string) => console.error(line));
  const clock = settings.clock ?? realClock;
  const budget = settings.budget ?? purgeBudgetInMemory();
  // While the shared budget cannot be read (its database away), this instance counts alone
  // rather than hold takedowns back or its shutdown up: as before the budget was shared.
  const alone = purgeBudgetInMemory();
  let unshared = false;
  let urgent: string[] = [];
  let waiting: string[] = [];
  const queued = new Set<string>();
  let draining: Promise<void> | undefined;

  /** When the next request may go, from the shared budget if it answers. */
  async function take(): Promise<number> {
    try {
      const at = await budget.take(perMinute, clock.now());
      if (unshared) log('The CDN purge budget is read again: every instance counts together.');
      unshared = false;
      return at;
    } catch (error) {
      if (!unshared)
        log(
          `The CDN purge budget could not be read (${(error as Error).message}); ` +
            'this instance counts its purges alone until it can.',
        );
      unshared = true;
      return alone.take(perMinute, clock.now());
    }
  }

  async function drain(): Promise<void> {
    let attempts = 0;
    while (urgent.length + waiting.length > 0) {
      // The request's time first, then what it holds: a takedown queued meanwhile goes in it.
      const at = await take();
      if (at > clock.now()) await clock.sleep(at - clock.now());
      const urls = [...urgent, ...waiting].slice(0, batch);
      const fromUrgent = Math.min(urgent.length, urls.length);
      urgent = urgent.slice(fromUrgent);
      waiting = waiting.slice(urls.length - fromUrgent);
      try {
        await send(settings.target, urls);
        for (const url of urls) queued.delete(url);
        attempts = 0;
      } catch (error) {
        attempts += 1;
        if (attempts < ATTEMPTS) {
          urgent = [...urls, ...urgent];
        } else {
          for (const url of urls) queued.delete(url);
          attempts = 0;
        }
        log(
          `The CDN purge of ${urls.length} URLs failed (${(error as Error).message})` +
            (attempts === 0 ? `; given up after ${ATTEMPTS} attempts.` : '; trying again.'),
        );
      }
    }
  }

  return {
    purge(urls, options = {}) {
      const fresh = urls.filter((url) => !queued.has(url) || options.urgent);
      for (const url of fresh) queued.add(url);
      if (options.urgent) {
        const moved = new Set(fresh);
        waiting = waiting.filter((url) => !moved.has(url));
        urgent.push(...fresh);
      } else {
        waiting.push(...fresh);
      }
      draining ??= drain().finally(() => {
        draining = undefined;
      });
    },
    async idle() {
      while (draining) await draining;
    },
  };
}

async function send(target: PurgeTarget, urls: readonly string[]): Promise<void> {
  if (target.kind === 'command') return runCommand(target.command, urls);
  const answer = await fetch(target.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(target.authorization ? { Authorization: target.authorization } : {}),
    },
    body: target.body.replace('{urls}', JSON.stringify(urls)),
    signal: AbortSignal.timeout(30_000),
  });
  await answer.arrayBuffer();
  if (!answer.ok) throw new Error(`${target.url} answered ${answer.status}`);
}

function runCommand(command: string, urls: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'ignore', 'pipe'] });
    let said = '';
    child.stderr.on('data', (chunk: Buffer) => (said = `${said}${chunk.toString()}`.slice(-500)));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ended with exit code ${code}: ${said.trim()}`)),
    );
    child.stdin.end(`${urls.join('\n')}\n`);
  });
}

/** The hook the environment asks for, or undefined (no CDN, or none to purge). */
export function purgeHookFromEnv(
  env: NodeJS.ProcessEnv,
  log?: (line: string) => void,
  budget?: PurgeBudget,
): PurgeHook | undefined {
  const whole = (name: string, fallback: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`${name}: expected a whole number of 1 or more, got ${env[name]}`);
    return value;
  };
  const common = {
    batch: whole('CDN_PURGE_BATCH', 100),
    perMinute: whole('CDN_PURGE_PER_MINUTE', 5),
    ...(log ? { log } : {}),
    ...(budget ? { budget } : {}),
  };
  if (env.CDN_PURGE_URL)
    return purgeHook({
      ...common,
      target: {
        kind: 'http',
        url: env.CDN_PURGE_URL,
        body: env.CDN_PURGE_BODY || DEFAULT_PURGE_BODY,
        ...(env.CDN_PURGE_AUTHORIZATION ? { authorization: env.CDN_PURGE_AUTHORIZATION } : {}),
      },
    });
  if (env.CDN_PURGE_COMMAND)
    return purgeHook({ ...common, target: { kind: 'command', command: env.CDN_PURGE_COMMAND } });
  return undefined;
}
