// The store's rate limiters (StoreHandle.rateLimiter), on SQLite (in the process's memory) and in
// the postgres suite on PostgreSQL (the rate_limits table), and the sign-in limits built on them
// (server/auth/rate-limits.ts): on PostgreSQL two instances on one database count together.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createRateLimits,
  DEFAULT_RATE_LIMITS,
  secondsToWait,
  type RateLimitSettings,
} from '../../../server/auth/rate-limits.ts';
import { openPostgresEngine } from '../../../store/postgres-engine.ts';
import { storeOn, type StoreHandle } from '../../../store/store.ts';
import { onPostgres, openTestStore, type TestStore } from '../../helpers/test-store.ts';

const dirs: string[] = [];
const stores: StoreHandle[] = [];
let t: TestStore;

/** A store on a new folder's database (a new SQLite file, or a new PostgreSQL schema). */
async function newStore(): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), 'localboard-limits-'));
  dirs.push(dir);
  const opened = await openTestStore(dir);
  stores.push(opened.store);
  return opened;
}

/** Another instance on the same database as `t` (on SQLite: another process's memory). */
async function secondInstance(): Promise<StoreHandle> {
  const opened = await openTestStore(dirs[0]!);
  stores.push(opened.store);
  return opened.store;
}

beforeEach(async () => {
  t = await newStore();
});

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(stores.splice(0).map((store) => store.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a rate limiter', () => {
  it('allows `points` attempts per key in a window, then answers how long to wait', async () => {
    const limiter = t.store.rateLimiter({ keyPrefix: 'tries', points: 2, duration: 60 });
    expect(await secondsToWait(limiter, 'a')).toBe(0);
    expect(await secondsToWait(limiter, 'a')).toBe(0);
    const wait = await secondsToWait(limiter, 'a');
    expect(wait).toBeGreaterThan(58);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await secondsToWait(limiter, 'b')).toBe(0);
    // Another limiter's keys are its own, whatever they are named.
    const other = t.store.rateLimiter({ keyPrefix: 'other', points: 1, duration: 60 });
    expect(await secondsToWait(other, 'a')).toBe(0);
  });

  it('counts, gives back, blocks, sets and forgets', async () => {
    const counter = t.store.rateLimiter({ keyPrefix: 'count', points: 100, duration: 60 });
    expect(await counter.get('k')).toBeNull();
    expect((await counter.penalty('k', 1)).consumedPoints).toBe(1);
    expect((await counter.penalty('k', 2)).consumedPoints).toBe(3);
    expect((await counter.reward('k', 1)).consumedPoints).toBe(2);
    expect((await counter.get('k'))?.consumedPoints).toBe(2);
    await counter.set('k', 7, 120);
    const set = await counter.get('k');
    expect(set?.consumedPoints).toBe(7);
    expect(set?.msBeforeNext).toBeGreaterThan(110_000);
    await counter.delete('k');
    expect(await counter.get('k')).toBeNull();

    const waits = t.store.rateLimiter({ keyPrefix: 'waits', points: 1, duration: 1 });
    await waits.block('k', 300);
    const blocked = await waits.get('k');
    expect(blocked?.consumedPoints).toBe(2);
    expect(blocked?.msBeforeNext).toBeGreaterThan(290_000);
    await expect(waits.consume('k')).rejects.toBeInstanceOf(RateLimiterRes);
  });

  it('starts a key again once its window has ended', async () => {
    const limiter = t.store.rateLimiter({ keyPrefix: 'short', points: 1, duration: 1 });
    expect(await secondsToWait(limiter, 'a')).toBe(0);
    expect(await secondsToWait(limiter, 'a')).toBe(1);
    await sleep(1100);
    expect(await limiter.get('a')).toBeNull();
    expect(await secondsToWait(limiter, 'a')).toBe(0);
  });
});

describe.runIf(onPostgres())('rate limiters on PostgreSQL', () => {
  it('count together on two instances on one database, and apart on another', async () => {
    const options = { keyPrefix: 'signupPerIp', points: 3, duration: 60 };
    const first = t.store.rateLimiter(options);
    const second = (await secondInstance()).rateLimiter(options);
    const elsewhere = (await newStore()).store.rateLimiter(options);
    expect(await secondsToWait(first, '203.0.113.1')).toBe(0);
    expect(await secondsToWait(second, '203.0.113.1')).toBe(0);
    expect(await secondsToWait(first, '203.0.113.1')).toBe(0);
    expect(await secondsToWait(second, '203.0.113.1')).toBeGreaterThan(0);
    expect(await secondsToWait(first, '203.0.113.1')).toBeGreaterThan(0);
    // Another database (a schema of its own) has counters of its own.
    expect(await secondsToWait(elsewhere, '203.0.113.1')).toBe(0);
  });

  it('count attempts sent at once to two instances each once', async () => {
    const options = { keyPrefix: 'burst', points: 10, duration: 60 };
    const instances = [t.store.rateLimiter(options), (await secondInstance()).rateLimiter(options)];
    const waits = await Promise.all(
      Array.from({ length: 30 }, (_, index) => secondsToWait(instances[index % 2]!, 'key')),
    );
    expect(waits.filter((wait) => wait === 0)).toHaveLength(10);
  });

  it('keep keys as long as an email and an address together', async () => {
    const limiter = t.store.rateLimiter({ keyPrefix: 'long', points: 1, duration: 60 });
    const key = `${'a'.repeat(64)}@${'b'.repeat(180)}.example\nffff:ffff:ffff:ffff::/64`;
    expect(await secondsToWait(limiter, key)).toBe(0);
    expect(await secondsToWait(limiter, key)).toBeGreaterThan(0);
  });

  it('are kept in rate_limits, and rows whose window has ended are swept', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    await t.store.rateLimiter({ keyPrefix: 'swept', points: 5, duration: 1 }).penalty('gone');
    const other = await secondInstance();
    await other.rateLimiter({ keyPrefix: 'kept', points: 5, duration: 60 }).penalty('kept');
    const rows = () => t.sql.all<{ key: string }>('SELECT key FROM rate_limits ORDER BY key');
    expect(await rows()).toEqual([{ key: 'kept:kept' }, { key: 'swept:gone' }]);
    await sleep(1100);
    vi.advanceTimersByTime(5 * 60_000);
    await vi.waitFor(async () => expect(await rows()).toEqual([{ key: 'kept:kept' }]));
  });

  it('answer an error, never a go-ahead, while PostgreSQL is unreachable, and recover', async () => {
    const url = new URL('DATABASE_URL' in t.env ? t.env.DATABASE_URL : '');
    const proxy = await tcpProxy(new URL(url));
    url.host = `127.0.0.1:${proxy.port}`;
    const store = storeOn(await openPostgresEngine(url.toString(), { poolSize: 2, log: () => {} }));
    stores.push(store);
    const limits = createRateLimits(DEFAULT_RATE_LIMITS, store);
    expect(await limits.consume('signupPerIp', '203.0.113.1')).toBe(0);

    await proxy.stop();
    const refusedOrFailed = async (work: Promise<unknown>) => {
      const error = await work.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(RateLimiterRes);
    };
    await refusedOrFailed(limits.consume('signupPerIp', '203.0.113.1'));
    await refusedOrFailed(limits.attempt().consume('signinPerIp', '203.0.113.1'));
    await refusedOrFailed(limits.attempt().newBrowser('owner@example.com'));
    await refusedOrFailed(limits.signinWait('owner@example.com', '203.0.113.1'));
    await refusedOrFailed(limits.signinFailed('owner@example.com', '203.0.113.1'));

    await proxy.start();
    await vi.waitFor(
      async () => expect(await limits.consume('signupPerIp', '203.0.113.1')).toBe(0),
      { timeout: 10_000, interval: 200 },
    );
  });
});

// Two instances on one database; on SQLite, whose limits are the process's, one instance.
describe('the sign-in limits on the store', () => {
  const SETTINGS: RateLimitSettings = {
    ...DEFAULT_RATE_LIMITS,
    signinPerEmail: { points: 4, duration: 60 },
    signinPerClientAndEmail: { points: 2, duration: 60 },
    signinPerAccountFromNewBrowsers: { points: 3, duration: 1 },
  };
  const EMAIL = 'owner@example.com';

  async function twoInstances() {
    const first = createRateLimits(SETTINGS, t.store);
    const second = onPostgres() ? createRateLimits(SETTINGS, await secondInstance()) : first;
    return [first, second] as const;
  }

  it('slow a client whose failures are spread over the instances', async () => {
    const [a, b] = await twoInstances();
    await a.signinFailed(EMAIL, '203.0.113.1');
    await b.signinFailed(EMAIL, '203.0.113.1');
    expect(await a.signinWait(EMAIL, '203.0.113.1')).toBe(0);
    // The third failure is past the two free ones: a second's wait, on either instance.
    await a.signinFailed(EMAIL, '203.0.113.1');
    expect(await b.signinWait(EMAIL, '203.0.113.1')).toBe(1);
    expect(await a.signinWait(EMAIL, '203.0.113.1')).toBe(1);
    // The account has had four failures: under attack, a client that fails waits at once.
    await b.signinFailed(EMAIL, '203.0.113.2');
    expect(await a.signinWait(EMAIL, '203.0.113.2')).toBe(1);
    // The right password on one instance clears the client's failures on both.
    await a.signinSucceeded(EMAIL, '203.0.113.1', true);
    expect(await b.signinWait(EMAIL, '203.0.113.1')).toBe(0);
  });

  it('close an account to new browsers after attempts on either instance, longer each time', async () => {
    const [a, b] = await twoInstances();
    const newBrowser = (limits: typeof a) => limits.attempt().newBrowser(EMAIL);
    expect(await newBrowser(a)).toBe(0);
    expect(await newBrowser(b)).toBe(0);
    expect(await newBrowser(a)).toBe(0);
    expect(await newBrowser(b)).toBe(1);
    expect(await newBrowser(a)).toBe(1);
    await sleep(1100);
    // After the closure, one try at a time; the next closes it for twice as long.
    expect(await newBrowser(a)).toBe(0);
    expect(await newBrowser(b)).toBe(2);
    expect(await newBrowser(a)).toBe(2);
  });

  it('let no burst of new browsers past the limit, however it is spread', async () => {
    const [a, b] = await twoInstances();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => (index % 2 ? a : b).attempt().newBrowser(EMAIL)),
    );
    expect(answers.filter((closedFor) => closedFor === 0)).toHaveLength(3);
  });

  it('take back a busy server’s attempt on the instance that counted it', async () => {
    const [a, b] = await twoInstances();
    const busy = a.attempt();
    expect(await busy.consume('signinPerIp', '203.0.113.1')).toBe(0);
    expect(await busy.newBrowser(EMAIL)).toBe(0);
    await busy.giveBack();
    for (let attempt = 1; attempt <= 3; attempt++)
      expect(await b.attempt().newBrowser(EMAIL)).toBe(0);
    expect(await a.attempt().newBrowser(EMAIL)).toBe(1);
  });
});

interface TcpProxy {
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** A TCP relay to `target`'s host, which a test stops (PostgreSQL unreachable) and starts again. */
async function tcpProxy(target: URL): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const start = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  await start();
  return {
    get port() {
      return port;
    },
    start,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server!.close(() => resolve());
      }),
  };
}
