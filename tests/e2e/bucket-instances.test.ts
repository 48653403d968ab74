// Several instances with the site in a bucket (docs/product.md section 12), all real and on
// loopback: a throwaway PostgreSQL, the S3 server (Ceph's radosgw), haproxy in front
// (server/operations/haproxy-config.ts: the API and the pages rendered on request to the
// instances, the rest to the bucket, read anonymously) and three server processes of the
// production build, each with PHOTOS_BUCKET and SITE_BUCKET set. One of them publishes (it holds
// the lock); the others never build, and read the content and search index it releases. An
// approval on any instance is in the bucket (page and photos, byte for byte) within 5 s and
// served through haproxy; a removal takes both out within 5 s; the publisher killed under load
// hands over with no approved ad lost; a fourth instance is ready within 15 s without building
// and finds the published ads by search. The site is a small fixture (every state, five cities
// each). Each instance runs from a folder of its own, started as README's `npm start` starts one:
// only the publisher ever compiles content or writes a page.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module of the scripts, without types.
import { ensurePostgres, freePort, startThrowawayPostgres } from '../../scripts/postgres.mjs';
import { ensureS3Server } from '../../scripts/s3-server.mjs';
import { ensureHaproxy, startHaproxy, type RunningHaproxy } from '../../scripts/haproxy.mjs';
import { haproxyConfig } from '../../server/operations/haproxy-config.ts';
import {
  openObjectStorage,
  type ObjectStorage,
} from '../../store/object-storage/object-storage.ts';
import { privateKeyOf, publicKeyOf } from '../../store/photo-storage/photo-bucket.ts';
import {
  openPhotoStorage,
  readPhotoStorageLocation,
} from '../../store/photo-storage/photo-storage.ts';
import { createPhotoPool, type PhotoPool } from '../../server/photos/processing-pool.ts';
import { openPostgresEngine } from '../../store/postgres-engine.ts';
import { SITE_PUBLISHER_LOCK } from '../../server/publishing/site-bucket/bucket-publishing.ts';
import { storeOn, type StoreHandle } from '../../store/store.ts';
import {
  adPath,
  cityPath,
  meApiPath,
  moderateAdApiPath,
  outputFileForPath,
  signupApiPath,
  statePath,
} from '../../core/paths.ts';
import { DEFAULT_EXPLICIT_THRESHOLD } from '../../core/schemas/photos.ts';
import {
  createPublicBucket,
  s3Settings,
  startBucketInstance,
  type BucketInstance,
} from '../../bench/bucket-instances.ts';
import { makeContentFixture } from '../helpers/content-fixture.ts';
import { insertMemberAd } from '../helpers/member-ads.ts';
import { keptPhotoId, putPhotosOnAd } from '../helpers/moderation-photos.ts';
import { TEST_PASSWORD_HASH_COST } from '../helpers/password-cost.ts';
import { smallJpeg } from '../helpers/photo-fixtures.ts';
import { startS3ServerForFile, type S3ServerAddress } from '../helpers/s3-server.ts';
import { testSql, type TestSql } from '../helpers/test-store.ts';
import { withViteOutputOfDist } from '../helpers/vite-output.ts';
import { storedRows } from '../helpers/stored-rows.ts';

const postgres = ensurePostgres(() => {}) as { binDir?: string; problem?: string };
const s3Found = ensureS3Server(() => {});
const haproxyFound = ensureHaproxy(() => {});
const missing = [postgres.problem, s3Found.problem, haproxyFound.problem].filter(Boolean);
const BUCKET = 'localboard';
const SITE = { bucket: BUCKET, prefix: 'site/' };
const PHOTOS = { bucket: BUCKET, prefix: 'media/' };
const PASSWORD = 'a long enough password';

type Instance = BucketInstance;

let work: string;
let fixture: ReturnType<typeof makeContentFixture>;
let cluster: { url: string; stop(): void } | undefined;
let s3: (S3ServerAddress & { stop(): Promise<void> }) | undefined;
let proxy: RunningHaproxy | undefined;
let front: string;
/** The site's objects (SITE_BUCKET) and the photos' (PHOTOS_BUCKET). */
let bucket: ObjectStorage;
let media: ObjectStorage;
let store: StoreHandle;
let sql: TestSql;
let closeStore: () => Promise<void>;
let pool: PhotoPool;
let moderatorCookie: string;
const instances: Instance[] = [];

/** The environment of every instance: the same settings, as one deploy has. */
function instanceEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: cluster!.url,
    CONTENT_DIR: fixture.dir,
    SITE_BUCKET: `s3://${BUCKET}/${SITE.prefix}`,
    PHOTOS_BUCKET: `s3://${BUCKET}/${PHOTOS.prefix}`,
    ...s3Settings(s3!),
    PUBLIC_BASE_URL: front,
    TRUST_PROXY: '1',
    DIGEST_SCHEDULE: 'off',
    PHOTO_PROCESSES: '1',
    PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST),
  };
}

/**
 * An instance in a folder of its own, as a machine of its own would be: Vite's output reused from
 * the install (dist/, current for these sources), then what `npm start` runs with SITE_BUCKET set:
 * `scripts/build.mjs --if-needed` (which writes no page and compiles no content) and the server.
 */
async function startInstance(name: string, port: number): Promise<Instance> {
  const dir = join(work, name);
  withViteOutputOfDist(join(dir, 'out'));
  const instance = startBucketInstance(name, dir, port, instanceEnv());
  instances.push(instance);
  return instance;
}

/** The pages an instance wrote into its own site folder. */
const pagesWritten = (instance: Instance) =>
  existsSync(join(instance.dir, 'out', 'site'))
    ? readdirSync(join(instance.dir, 'out', 'site'), { recursive: true }).filter((name) =>
        String(name).endsWith('.html'),
      ).length
    : 0;

const said = (instance: Instance) => instance.output.join('');
/** What the instances said, but for their request lines. */
const everyOutput = () =>
  instances
    .map((one) => {
      const lines = said(one)
        .split('\n')
        .filter((line) => !/^\S+Z (GET|POST|HEAD) /.test(line));
      return `--- ${one.name}\n${lines.slice(-40).join('\n')}`;
    })
    .join('\n');

/** Resolves once `check` passes, polling every 50 ms; fails with the instances' output after `ms`. */
async function within(ms: number, what: string, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      if (await check()) return Date.now() - started;
    } catch {
      // Not answering yet.
    }
    if (Date.now() - started > ms)
      throw new Error(`${what}: not within ${ms / 1000} s\n${everyOutput()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const status = async (url: string) => (await fetch(url)).status;
const ready = async (instance: Instance) => (await status(`${instance.url}/readyz`)) === 200;
/** The instance that publishes now: the one that has said it uploaded. */
const publisherNow = () =>
  instances.find(
    (one) =>
      one.process.exitCode === null &&
      one.process.signalCode === null &&
      /Uploaded \d+ objects/.test(said(one)),
  );

function post(path: string, body: unknown, cookie?: string) {
  return fetch(`${front}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: front, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

/** An ad waiting for review with one photo, as a member leaves it; its id and the photo's sizes. */
async function adInReviewWithPhoto(city: string, title: string, seed: number) {
  const id = await insertMemberAd(
    { store, sql },
    { state: 'California', city, title, status: 'review' },
  );
  const { accountId } = (await store.memberAds.find(id))!;
  const location = readPhotoStorageLocation(instanceEnv());
  if ('problem' in location) throw new Error(location.problem);
  const photos = {
    pool,
    storage: openPhotoStorage(store, location.location),
    explicitThreshold: DEFAULT_EXPLICIT_THRESHOLD,
  };
  const photoId = await keptPhotoId(store, photos, accountId, await smallJpeg(seed, 1200, 900));
  await putPhotosOnAd({ store }, id, accountId, [photoId]);
  const keys = (await store.photos.find(photoId))!.variants.map((variant) => variant.key);
  const bytes = new Map<string, Buffer>();
  for (const key of keys) bytes.set(key, (await media.get(privateKeyOf(key)))!);
  const { revision } = (await store.memberAds.find(id))!;
  return { id, revision, keys, bytes, path: adPath('California', city, id) };
}

describe.skipIf(missing.length > 0)('instances with the site in a bucket, behind haproxy', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'localboard-bucket-instances-'));
    fixture = makeContentFixture();
    const frontPort = (await freePort()) as number;
    front = `http://127.0.0.1:${frontPort}`;
    const [started, s3Server] = await Promise.all([
      startThrowawayPostgres(postgres.binDir),
      startS3ServerForFile(),
    ]);
    cluster = started;
    s3 = s3Server;
    await createPublicBucket(s3!, BUCKET, SITE, PHOTOS);
    const settings = {
      endpoint: s3!.endpoint,
      region: s3!.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3!.accessKeyId, secretAccessKey: s3!.secretAccessKey },
    };
    bucket = openObjectStorage(SITE, settings);
    media = openObjectStorage(PHOTOS, settings);
    const ports = [(await freePort()) as number, (await freePort()) as number];
    ports.push((await freePort()) as number);
    proxy = await startHaproxy(
      haproxyFound.path!,
      haproxyConfig({
        listen: `127.0.0.1:${frontPort}`,
        instances: ports.map((port) => `127.0.0.1:${port}`),
        bucketServer: new URL(s3!.endpoint).host,
        site: SITE,
        photos: PHOTOS,
      }),
      frontPort,
    );
    await Promise.all(ports.map((port, index) => startInstance(`instance-${index + 1}`, port)));
    for (const instance of instances)
      await within(90_000, `${instance.name} ready`, () => ready(instance));
    // haproxy sends traffic to an instance once its /readyz answers 200 (checked every second).
    await within(5_000, 'haproxy sending to the instances', async () =>
      (await Promise.all([0, 1, 2].map(() => status(`${front}/readyz`)))).every((s) => s === 200),
    );
    const engine = await openPostgresEngine(cluster!.url, { poolSize: 2 });
    store = storeOn(engine);
    sql = testSql(engine.db);
    closeStore = () => store.close();
    pool = createPhotoPool({ processes: 1 });
    // A moderator, signed up through haproxy and given the role as the operator's command does.
    const signedUp = await post(signupApiPath(), {
      email: 'moderator@example.com',
      password: PASSWORD,
      dateOfBirth: '1990-05-17',
    });
    expect(signedUp.status).toBe(201);
    moderatorCookie = signedUp.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0])
      .join('; ');
    const moderator = await store.accounts.findByEmail('moderator@example.com');
    await store.moderation.setRole(moderator!.id, 'moderator');
  }, 240_000);

  afterAll(async () => {
    for (const instance of instances) instance.process.kill('SIGKILL');
    await proxy?.stop();
    await pool?.close();
    await closeStore?.();
    bucket?.close();
    media?.close();
    cluster?.stop();
    await s3?.stop();
    fixture?.cleanup();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('an approval is in the bucket within 5 s (page and photo, byte for byte), served through haproxy; one instance publishes', async () => {
    const ad = await adInReviewWithPhoto('Los Angeles', 'Kayaking at dawn', 41);
    const approved = await post(
      moderateAdApiPath(ad.id, 'approve'),
      { revision: ad.revision },
      moderatorCookie,
    );
    expect(approved.status).toBe(200);
    const page = outputFileForPath(ad.path);
    const ms = await within(5_000, 'the page and its photos in the bucket', async () => {
      if (!(await bucket.head(page))) return false;
      for (const key of ad.keys) if (!(await media.head(publicKeyOf(key)))) return false;
      return true;
    });
    console.log(`Approval → page and photos in the bucket: ${ms} ms.`);
    const publisher = publisherNow()!;
    expect(instances.filter((one) => /Uploaded \d+ objects/.test(said(one)))).toEqual([publisher]);
    // The bucket's page is the publisher's, byte for byte, and haproxy serves it from there.
    const inBucket = (await bucket.get(page))!;
    expect(inBucket.equals(readFileSync(join(publisher.dir, 'out', 'site', page)))).toBe(true);
    const served = await fetch(`${front}${ad.path}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(inBucket)).toBe(true);
    expect(inBucket.toString('utf8')).toContain('Kayaking at dawn');
    for (const key of ad.keys) {
      expect((await media.get(publicKeyOf(key)))!.equals(ad.bytes.get(key)!)).toBe(true);
      const photo = await fetch(`${front}/${publicKeyOf(key)}`);
      expect(photo.status).toBe(200);
      expect(Buffer.from(await photo.arrayBuffer()).equals(ad.bytes.get(key)!)).toBe(true);
      // The private part is never served.
      expect((await fetch(`${front}/${privateKeyOf(key)}`)).status).toBe(404);
    }
    // The others did not build: they read the release the publisher announced.
    for (const other of instances.filter((one) => one !== publisher)) {
      expect(said(other)).not.toMatch(/Published the site/);
      expect(said(other)).toMatch(/SITE_BUCKET is set: no content compiled, no page written here/);
      expect(pagesWritten(other)).toBe(0);
      await within(5_000, `${other.name} reading the release`, async () =>
        /Reading release \d+ of the site's content/.test(said(other)),
      );
    }
  });

  it('a removal takes the page and the photos out of the bucket within 5 s', async () => {
    const ad = await adInReviewWithPhoto('San Diego', 'Sailing on Sundays', 42);
    await post(moderateAdApiPath(ad.id, 'approve'), { revision: ad.revision }, moderatorCookie);
    const page = outputFileForPath(ad.path);
    await within(5_000, 'the approved page in the bucket', async () => !!(await bucket.head(page)));
    // Its publish done: released, so that every instance's search finds it.
    await within(5_000, 'the approved ad found by search', async () =>
      (await (await fetch(`${front}/search?q=sailing`)).text()).includes('Sailing on Sundays'),
    );
    const removed = await post(
      moderateAdApiPath(ad.id, 'remove'),
      { revision: ad.revision + 1, reason: 'spam' },
      moderatorCookie,
    );
    expect(removed.status).toBe(200);
    const ms = await within(5_000, 'the page and photos out of the bucket', async () => {
      if (await bucket.head(page)) return false;
      for (const key of ad.keys) if (await media.head(publicKeyOf(key))) return false;
      return true;
    });
    console.log(`Removal → page and photos out of the bucket: ${ms} ms.`);
    const gone = await fetch(`${front}${ad.path}`);
    expect(gone.status).toBe(404);
    // The site's own screen for an ad that is gone, not the S3 server's XML.
    expect(await gone.text()).toContain('<h1>Ad not found</h1>');
    for (const key of ad.keys)
      expect((await fetch(`${front}/${publicKeyOf(key)}`)).status).toBe(404);
  });

  it("a page the bucket does not have answers the site's not-found screen for its path", async () => {
    const screens: Array<[path: string, heading: string]> = [
      [statePath('Atlantis'), 'State not found'],
      [cityPath('Atlantis', 'Poseidonia'), 'State not found'],
      [cityPath('California', 'Nowhere Springs'), 'City not found'],
      [adPath('California', 'Los Angeles', 999_999_999), 'Ad not found'],
      [adPath('California', 'Nowhere Springs', 999_999_999), 'City not found'],
      ['/no-such-page', 'Page Not Found'],
    ];
    for (const [path, heading] of screens) {
      const answer = await fetch(`${front}${path}`);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(await answer.text(), path).toContain(`<h1>${heading}</h1>`);
    }
    // A photo that is not there stays a plain 404.
    const photo = await fetch(`${front}/photos/aa/none.webp`);
    expect(photo.status).toBe(404);
    expect(await photo.text()).not.toContain('<h1>');
  });

  it('a second publisher waits: one instance holds the lock, the others never upload', async () => {
    // Three instances try the lock every 2 s; PostgreSQL grants it to one.
    const holders = await storedRows(
      sql,
      `SELECT pid FROM pg_locks
        WHERE locktype = 'advisory' AND granted
          AND objid = (hashtextextended(? || current_schema(), 0) & 4294967295)::oid`,
      `${SITE_PUBLISHER_LOCK}:`,
    );
    expect(holders).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const uploaders = instances.filter((one) => /Uploaded \d+ objects/.test(said(one)));
    expect(uploaders).toHaveLength(1);
  });

  it('the publisher killed under load hands publishing over, no approved ad lost (live within 30 s)', async () => {
    const ads: Array<Awaited<ReturnType<typeof adInReviewWithPhoto>>> = [];
    for (const [index, city] of ['San Jose', 'Fresno', 'San Francisco'].entries())
      ads.push(await adInReviewWithPhoto(city, `Handed over ${index}`, 50 + index));
    // Load: pages rendered on request and the API, through haproxy, all along.
    let stopLoad = false;
    const answers: number[] = [];
    const load = (async () => {
      while (!stopLoad) {
        const statuses = await Promise.all([
          status(`${front}/search?q=handed`).catch(() => 0),
          status(`${front}${meApiPath()}`).catch(() => 0),
        ]);
        answers.push(...statuses);
      }
    })();
    const publisher = publisherNow()!;
    for (const ad of ads)
      expect(
        (
          await post(
            moderateAdApiPath(ad.id, 'approve'),
            { revision: ad.revision },
            moderatorCookie,
          )
        ).status,
      ).toBe(200);
    // Mid-publish: the approvals' build has begun.
    publisher.process.kill('SIGKILL');
    await new Promise((resolve) => publisher.process.once('exit', resolve));
    const ms = await within(30_000, 'every approved ad in the bucket and served', async () => {
      for (const ad of ads) {
        if (!(await bucket.head(outputFileForPath(ad.path)))) return false;
        if ((await status(`${front}${ad.path}`)) !== 200) return false;
      }
      return true;
    });
    stopLoad = true;
    await load;
    console.log(`Publisher killed → every approved ad live again: ${ms} ms.`);
    // The objects are there before the new publisher says so.
    await within(5_000, 'another instance publishing', async () => publisherNow() !== undefined);
    expect(publisherNow()).not.toBe(publisher);
    // The load's answers: 200, or 401 for /api/me without a session; never an error of ours.
    expect(answers.filter((answer) => answer !== 200 && answer !== 401)).toEqual([]);
  });

  it('a fourth instance is ready within 15 s without building, and finds the published ads by search', async () => {
    const fourth = await startInstance('instance-4', (await freePort()) as number);
    await within(15_000, 'the fourth instance ready', () => ready(fourth));
    const ms = Date.now() - fourth.startedAt;
    console.log(`A new instance with SITE_BUCKET, from its start command: ready in ${ms} ms.`);
    expect(ms).toBeLessThan(15_000);
    expect(said(fourth)).not.toMatch(/Published the site/);
    expect(pagesWritten(fourth)).toBe(0);
    expect(said(fourth)).toMatch(/Reading release \d+ of the site's content/);
    // Its search index comes after it is ready (the publisher's copy, then the ads since): until
    // then its /search says so, with 503, and /readyz/search keeps haproxy's searches away.
    const searchMs = await within(15_000, 'the fourth instance searching', async () => {
      const search = await fetch(`${fourth.url}/search?q=kayaking`);
      const text = await search.text();
      if (search.status === 503) expect(text).toContain('its index is being made');
      return search.status === 200 && text.includes('Kayaking at dawn');
    });
    console.log(`… and its search index ready ${searchMs} ms after that.`);
    expect(await status(`${fourth.url}/readyz/search`)).toBe(200);
    expect(existsSync(join(fourth.dir, 'out', 'released-content'))).toBe(true);
  });
});
