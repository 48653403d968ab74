// Every instance publishes (store/parts/publish-announcements.ts, server/publishing/
// cluster-publisher.ts): two instances on one database, each with its own store and its own
// publisher; what one publishes, the other publishes too. On SQLite the instances are in one
// process (one server a file); in the postgres suite they hear each other through
// LISTEN/NOTIFY, and the listening connection comes back by itself when PostgreSQL drops it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clusterPublisher,
  type ClusterPublisher,
} from '../../../server/publishing/cluster-publisher.ts';
import type { Publisher } from '../../../server/publishing/publisher.ts';
import type { PublishAnnouncement } from '../../../store/parts/publish-announcements.ts';
import { openTestStore, testPostgresUrl, type TestStore } from '../../helpers/test-store.ts';
import { openPostgresEngine } from '../../../store/postgres-engine.ts';
import { sql } from 'kysely';

let dir: string;
let a: TestStore;
let b: TestStore;
const stops: Array<() => void> = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'localboard-announce-'));
  a = await openTestStore(dir);
  b = await openTestStore(dir);
});

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await a.store.close();
  await b.store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The announcements a store hears, as they come. */
function heard(store: TestStore['store']) {
  const announcements: PublishAnnouncement[] = [];
  const waiters: Array<() => void> = [];
  stops.push(
    store.publishing.onAnnounced((announcement) => {
      announcements.push(announcement);
      for (const wake of waiters.splice(0)) wake();
    }),
  );
  return {
    announcements,
    /** Resolves once `count` announcements were heard (or fails the test after 10 s). */
    async until(count: number) {
      const deadline = Date.now() + 10_000;
      while (announcements.length < count) {
        if (Date.now() > deadline)
          throw new Error(`heard ${JSON.stringify(announcements)}, waited for ${count}`);
        await new Promise<void>((wake) => {
          waiters.push(wake);
          setTimeout(wake, 100);
        });
      }
      return announcements;
    },
  };
}

/** A publisher that only notes what it was asked: each instance's own builds. */
function notingPublisher(): Publisher & { reasons: string[] } {
  const reasons: string[] = [];
  return {
    reasons,
    async publish(reason) {
      reasons.push(reason);
      return { ok: true };
    },
  };
}

const onPostgres = () => testPostgresUrl() !== undefined;
/** On PostgreSQL, the first thing heard is that listening began. */
const listening = () => (onPostgres() ? [{ kind: 'listening' }] : []);

describe('publish announcements', () => {
  it("reach every other instance on the database, naming the announcer, and not the announcer's own", async () => {
    const atA = heard(a.store);
    const atB = heard(b.store);
    await atA.until(listening().length);
    await atB.until(listening().length);

    await a.store.publishing.announce('approved ad 100000001');
    expect(await atB.until(listening().length + 1)).toEqual([
      ...listening(),
      { kind: 'announced', instance: a.store.publishing.instance, reason: 'approved ad 100000001' },
    ]);
    await b.store.publishing.announce('removed ad 100000002');
    expect((await atA.until(listening().length + 1)).at(-1)).toEqual({
      kind: 'announced',
      instance: b.store.publishing.instance,
      reason: 'removed ad 100000002',
    });
    expect(atA.announcements).toHaveLength(listening().length + 1);
    expect(atB.announcements).toHaveLength(listening().length + 1);
    expect(a.store.publishing.instance).not.toBe(b.store.publishing.instance);
  });

  it('a publish on one instance is a publish on every instance', async () => {
    const localA = notingPublisher();
    const localB = notingPublisher();
    const publishers: ClusterPublisher[] = [
      clusterPublisher(a.store.publishing, localA),
      clusterPublisher(b.store.publishing, localB),
    ];
    stops.push(...publishers.map((publisher) => () => publisher.stop()));
    const atB = heard(b.store);
    await atB.until(listening().length);
    // On PostgreSQL each instance publishes once as it begins to listen: it may have missed some.
    const startUp = onPostgres()
      ? ['listening to the other instances (again): they may have published meanwhile']
      : [];
    await expect.poll(() => localA.reasons).toEqual(startUp);

    expect(await publishers[0]!.publish('approved ad 100000001')).toEqual({ ok: true });
    await atB.until(listening().length + 1);
    await expect
      .poll(() => localB.reasons)
      .toEqual([...startUp, `approved ad 100000001, on ${a.store.publishing.instance}`]);
    expect(localA.reasons).toEqual([...startUp, 'approved ad 100000001']);
  });

  it.runIf(testPostgresUrl())(
    'the listening connection comes back after PostgreSQL drops it, and says it may have missed some',
    async () => {
      const atB = heard(b.store);
      await atB.until(1);
      // PostgreSQL ends B's listening connection, as a restart would.
      const admin = await openPostgresEngine(urlOf(b), { readOnly: true, poolSize: 1 });
      try {
        const { rows } = await sql<{ ended: boolean }>`
          SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
          WHERE query = ${`LISTEN "localboard:publish:${schemaOf(urlOf(b))}"`}`.execute(admin.db);
        // A's listener, and B's.
        expect(rows.length).toBeGreaterThanOrEqual(1);
      } finally {
        await admin.close();
      }
      expect((await atB.until(2)).at(-1)).toEqual({ kind: 'listening' });
      await a.store.publishing.announce('renewed ad 100000003');
      expect((await atB.until(3)).at(-1)).toEqual({
        kind: 'announced',
        instance: a.store.publishing.instance,
        reason: 'renewed ad 100000003',
      });
    },
  );
});

const urlOf = (store: TestStore) => (store.env as { DATABASE_URL: string }).DATABASE_URL;

/** The schema a test store's URL uses (test-store.ts: `-c search_path=…`). */
function schemaOf(url: string): string {
  return /search_path=(\w+)/.exec(new URL(url).searchParams.get('options') ?? '')![1]!;
}
