// The CDN's purge budget, one for every instance on the database (store/parts/purge-budget.ts, used by
// server/publishing/site-bucket/purge-hook.ts): two instances purging at once — the publisher
// after an upload, another deleting a member's photos — send the CDN's purge API, here a real
// HTTP server on 127.0.0.1, no more requests in any minute than CDN_PURGE_PER_MINUTE between
// them, and every URL in the end. In the postgres suite the two are two pools on one schema; on
// SQLite, one server a file, the two hooks share its one store. Time is a fake clock that moves
// on only when every busy hook is asleep (the minute is the point, not the machine's speed).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { purgeHook, type PurgeHook } from '../../../server/publishing/site-bucket/purge-hook.ts';
import type { StoreHandle } from '../../../store/store.ts';
import { purgeEndpointForFile } from '../../helpers/purge-endpoint.ts';
import { onPostgres, openTestStore } from '../../helpers/test-store.ts';

const MINUTE = 60_000;
const PER_MINUTE = 5;

interface Received {
  at: number;
  /** Which instance sent it (its Authorization header). */
  instance?: string;
  urls: string[];
}

let received: Received[] = [];
let dir: string;
let first: StoreHandle;
let second: StoreHandle;
const stores: StoreHandle[] = [];

/** Time for the hooks: `now` moves only when `run` finds every busy hook asleep. */
function fakeTime(start: number) {
  let now = start;
  const sleepers: Array<{ until: number; wake: () => void }> = [];
  const clock = {
    now: () => now,
    sleep: (ms: number) =>
      new Promise<void>((wake) => sleepers.push({ until: now + ms, wake: () => wake() })),
  };
  return {
    clock,
    now: () => now,
    /** Runs the hooks' queues to their end; `at(time)` calls come once the clock reaches them. */
    async run(hooks: PurgeHook[], at: Array<{ time: number; then: () => void }> = []) {
      const done = hooks.map(() => false);
      const watch = () =>
        hooks.forEach((hook, index) => {
          done[index] = false;
          void hook.idle().then(() => (done[index] = true));
        });
      watch();
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        const busy = done.filter((isDone) => !isDone).length;
        if (busy === 0 && at.length === 0) return;
        if (sleepers.length < busy) continue;
        // Every busy hook sleeps: on to the first waking (or the next event), no sooner.
        const next = Math.min(...sleepers.map((sleeper) => sleeper.until), at[0]?.time ?? Infinity);
        now = Math.max(now, next);
        for (const sleeper of sleepers.filter((each) => each.until <= now)) {
          sleepers.splice(sleepers.indexOf(sleeper), 1);
          sleeper.wake();
        }
        while (at[0] && at[0].time <= now) {
          at.shift()!.then();
          watch();
        }
      }
    },
  };
}

let time = fakeTime(0);

const cdn = purgeEndpointForFile('/zones/abc/purge_cache', ({ authorization, files }) => {
  received.push({
    at: time.now(),
    ...(authorization ? { instance: authorization } : {}),
    urls: files,
  });
});

beforeEach(async () => {
  received = [];
  time = fakeTime(Date.parse('2026-03-02T10:00:00.000Z'));
  dir = mkdtempSync(join(tmpdir(), 'localboard-purge-budget-'));
  first = (await openTestStore(dir)).store;
  stores.push(first);
  // Another instance on the same database: on PostgreSQL a pool of its own; a SQLite file has
  // one server, whose one store both hooks share.
  second = onPostgres() ? (await openTestStore(dir)).store : first;
  if (second !== first) stores.push(second);
});

afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  rmSync(dir, { recursive: true, force: true });
});

const pages = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => `https://example.test/city/A/B/ad/${from + index}`);

/** The most requests the endpoint received within any one minute. */
function mostInAMinute(requests: readonly Received[]): number {
  return Math.max(
    0,
    ...requests.map(
      (request) =>
        requests.filter((other) => other.at >= request.at && other.at - request.at < MINUTE).length,
    ),
  );
}

test('two instances purging at once send the CDN at most its limit a minute between them', async () => {
  const log: string[] = [];
  const hookOn = (store: StoreHandle, instance: string) =>
    purgeHook({
      target: { kind: 'http', url: cdn.url, body: '{"files":{urls}}', authorization: instance },
      perMinute: PER_MINUTE,
      budget: store.purgeBudget,
      clock: time.clock,
      log: (line) => log.push(line),
    });
  const publisher = hookOn(first, 'publisher');
  const other = hookOn(second, 'other');
  // The publisher's upload changed 1,300 pages (13 requests); meanwhile the other instance
  // deletes a member's photos, 150 URLs (2 requests), and a minute on takes a photo down.
  const start = time.now();
  publisher.purge(pages(1_300));
  other.purge(pages(150, 10_000), { urgent: true });
  const takedown = 'https://example.test/photos/ab/abcdef-large.webp';
  await time.run(
    [publisher, other],
    [{ time: start + MINUTE + 1, then: () => other.purge([takedown], { urgent: true }) }],
  );

  expect(log).toEqual([]);
  // 13 + 2 + 1 requests, from both; the CDN never saw more than five in a minute.
  expect(received).toHaveLength(16);
  expect(new Set(received.map((request) => request.instance))).toEqual(
    new Set(['publisher', 'other']),
  );
  expect(mostInAMinute(received)).toBe(PER_MINUTE);
  // Every URL purged, once.
  const all = received.flatMap((request) => request.urls);
  expect(all).toHaveLength(1_451);
  expect(new Set(all)).toEqual(new Set([...pages(1_300), ...pages(150, 10_000), takedown]));
  // Sixteen requests at five a minute: the last went in the fourth minute, not later.
  expect(received.at(-1)!.at - start).toBe(3 * MINUTE);
  // The takedown went first in the other instance's next request, which waited only for the
  // requests taken before it, not behind the rest of the upload.
  const afterIt = received.filter(
    (request) => request.instance === 'other' && request.at > start + MINUTE,
  );
  expect(afterIt[0]!.urls).toEqual([takedown]);
  expect(afterIt[0]!.at - start).toBe(2 * MINUTE);
});

test('the budget answers when each request may go, for every instance', async () => {
  const now = time.now();
  const times: number[] = [];
  for (let index = 0; index < 6; index++)
    times.push(await (index % 2 === 0 ? first : second).purgeBudget.take(PER_MINUTE, now));
  // Five now; the sixth when the first of them is a minute old.
  expect(times.map((at) => at - now)).toEqual([0, 0, 0, 0, 0, MINUTE]);
  // Taken later, a request goes after those taken before it, whatever its `now`.
  expect((await first.purgeBudget.take(PER_MINUTE, now + 1_000)) - now).toBe(MINUTE);
  // Once a minute has gone by, the budget is whole again.
  expect((await second.purgeBudget.take(PER_MINUTE, now + 3 * MINUTE)) - now).toBe(3 * MINUTE);
});

test('requests taken at the same moment by both instances still keep to the limit', async () => {
  const now = time.now();
  const times = await Promise.all(
    Array.from({ length: 20 }, (_, index) =>
      (index % 2 === 0 ? first : second).purgeBudget.take(PER_MINUTE, now),
    ),
  );
  expect(mostInAMinute(times.map((at) => ({ at, urls: [] })))).toBe(PER_MINUTE);
  expect(Math.max(...times) - now).toBe(3 * MINUTE);
});

test('while the database cannot answer, an instance counts its purges alone and says so', async () => {
  const log: string[] = [];
  mkdirSync(join(dir, 'gone'));
  const gone = (await openTestStore(join(dir, 'gone'))).store;
  // It answered once; then its connections end, as when the database goes away.
  await gone.purgeBudget.take(PER_MINUTE, time.now() - 2 * MINUTE);
  await gone.close();
  const hook = purgeHook({
    target: { kind: 'http', url: cdn.url, body: '{"files":{urls}}' },
    perMinute: PER_MINUTE,
    budget: gone.purgeBudget,
    clock: time.clock,
    log: (line) => log.push(line),
  });
  hook.purge(pages(700));
  await time.run([hook]);
  expect(received.flatMap((request) => request.urls)).toEqual(pages(700));
  expect(mostInAMinute(received)).toBe(PER_MINUTE);
  expect(log).toHaveLength(1);
  expect(log[0]).toMatch(
    /^The CDN purge budget could not be read \(.+\); this instance counts its purges alone until it can\.$/,
  );
});
