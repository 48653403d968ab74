// Publishing (docs/product.md section 6): member ads from the test's store (a real SQLite file, or
// PostgreSQL in the postgres suite) go through the real incremental build (the build's own steps,
// as the server runs them, reading the database read-only) into a temporary site, and the app
// serves the result. Rows are written with SQL, as the moderation routes write them.
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/http/app.ts';
import type { BuildPublisher } from '../../server/publishing/build-publisher.ts';
import { adPath, cityPath, outputFileForPath, statePath } from '../../core/paths.ts';
import { MANIFEST_FILE } from '../../pipeline/prerender/output-layout.ts';
import { pageHashFileOf } from '../../pipeline/prerender/manifest.ts';
import { makeContentFixture, writeFixtureFile } from '../helpers/content-fixture.ts';
import { testMailer } from '../helpers/mail.ts';
import { insertMemberAd, setMemberAdStatus } from '../helpers/member-ads.ts';
import { onPostgres, openTestStore, type TestStore } from '../helpers/test-store.ts';
import {
  buildSite,
  changedFiles,
  databaseArgs as buildDatabaseArgs,
  filesWithHashes,
  testBuildPublisher,
} from '../helpers/vite-output.ts';

const publisherTest = test.skipIf(onPostgres());
const BUILD_DATE = '2026-11-22';
let fixture: ReturnType<typeof makeContentFixture>;
let work: string;
let outDir: string;
let siteDir: string;
let t: TestStore;
/** How `npm run build` is told the test's database. */
let databaseArgs: string[];
let publisher: BuildPublisher;
let app: ReturnType<typeof createApp>;
let buildDate = BUILD_DATE;
const log: string[] = [];

const pageFile = (path: string) => join(siteDir, outputFileForPath(path));
const page = (path: string) => readFileSync(pageFile(path), 'utf8');

/** Every file of the site, by path, with a hash of its bytes. */
const tree = () => filesWithHashes(siteDir);

async function publish(reason = 'test') {
  const outcome = await publisher.publish(reason);
  expect(outcome).toEqual({ ok: true });
}

/** `npm run build` into the test's site, as an operator would run it. */
function npmRunBuild(...options: string[]) {
  return buildSite({
    date: buildDate,
    content: fixture.dir,
    out: outDir,
    cache: join(work, 'cache'),
    database: [],
    options,
  }).stdout;
}

beforeAll(async () => {
  fixture = makeContentFixture();
  work = mkdtempSync(join(tmpdir(), 'localboard-publishing-'));
  outDir = join(work, 'out');
  siteDir = join(outDir, 'site');
  t = await openTestStore(work);
  databaseArgs = buildDatabaseArgs(t.env);
  // The site as `npm run build` makes it (Vite's output and the build's steps included).
  npmRunBuild(...databaseArgs);
  publisher = testBuildPublisher({
    work,
    content: fixture.dir,
    env: t.env,
    buildDate: () => buildDate,
    log: (line) => log.push(line),
  });
  app = createApp({
    siteDir,
    store: t.store,
    mailer: testMailer(join(work, 'outbox')),
    publisher,
    log: false,
  });
}, 240_000);

afterAll(async () => {
  publisher?.stop();
  await publisher?.idle();
  await t?.store.close();
  fixture.cleanup();
  rmSync(work, { recursive: true, force: true });
});

describe('publishing member ads', () => {
  test('a live member ad gets its page, its place on its city page and in the counts', async () => {
    const before = tree();
    const landingBefore = page('/');
    expect(landingBefore).toContain('8 active ads');
    const id = await insertMemberAd(t, {
      state: 'California',
      city: 'San Jose',
      title: 'Board games on Sunday afternoons',
    });
    expect(id).toBeGreaterThan(100_000_000);
    await publish(`approved ad ${id}`);

    const ad = adPath('California', 'San Jose', id);
    expect(page(ad)).toContain('Board games on Sunday afternoons');
    expect(page(ad)).not.toContain('Sample ad');
    expect(page(cityPath('California', 'San Jose'))).toContain('Board games on Sunday afternoons');
    expect(page('/')).toContain('9 active ads');
    expect(page(statePath('California'))).toMatch(/San Jose[\s\S]*?1 ad</);
    // Only its city's pages, its own page, the pages that count ads and the cities whose nearest
    // ads now include San Jose (docs/product.md section 3, City page) are rewritten.
    expect(changedFiles(before, tree())).toEqual([
      'about/top-cities/index.html',
      'city/California/Fresno/index.html',
      'city/California/San Francisco/index.html',
      `city/California/San Jose/ad/${id}/index.html`,
      // Its city's feed has it.
      'city/California/San Jose/feed.xml',
      'city/California/San Jose/index.html',
      'city/Nevada/Reno/index.html',
      'index.html',
      // San Jose had no ads, so its page was not indexable: now it is.
      'sitemap.xml',
      'state/California/index.html',
    ]);
    const answer = await app.request(`http://localhost${ad}`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('Board games on Sunday afternoons');

    // Deleted by its member: gone at the next publish, and the server says so.
    await setMemberAdStatus(t, id, 'deleted');
    await publish(`deleted ad ${id}`);
    expect(existsSync(pageFile(ad))).toBe(false);
    expect(page(cityPath('California', 'San Jose'))).not.toContain('Board games');
    expect(page('/')).toContain('8 active ads');
    const gone = await app.request(`http://localhost${ad}`);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('Ad not found');
  }, 60_000);

  test('an ad expires by the build date', async () => {
    const id = await insertMemberAd(t, {
      state: 'Nevada',
      city: 'Las Vegas',
      title: 'Hiking Red Rock before it gets hot',
      postedOn: '2026-11-21',
      expiresOn: '2026-12-21',
    });
    await publish();
    const ad = adPath('Nevada', 'Las Vegas', id);
    expect(page(ad)).toContain('Hiking Red Rock');
    try {
      buildDate = '2026-12-20';
      await publish('the day before it expires');
      expect(existsSync(pageFile(ad))).toBe(true);
      buildDate = '2026-12-21';
      await publish('the day it expires');
      expect(existsSync(pageFile(ad))).toBe(false);
      expect(page(cityPath('Nevada', 'Las Vegas'))).not.toContain('Hiking Red Rock');
    } finally {
      buildDate = BUILD_DATE;
      await setMemberAdStatus(t, id, 'deleted');
      await publish();
    }
  }, 90_000);

  test("a member ad with a CSV ad's id fails the build, naming both", async () => {
    const id = await insertMemberAd(t, {
      state: 'California',
      city: 'San Diego',
      title: 'Tacos and a long walk',
    });
    await publish();
    const adsFile = join(fixture.dir, 'ads/sample.csv');
    const csv = readFileSync(adsFile, 'utf8');
    const line = csv.trimEnd().split('\n').length + 1;
    writeFixtureFile(
      fixture.dir,
      'ads/sample.csv',
      `${csv}${id},Nevada,Las Vegas,35,m4w,Coffee on the Strip?,A plain ad.,,false,2026-11-01,2027-05-01,true\n`,
    );
    try {
      const outcome = await publisher.publish('a clash');
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toContain(
        `content/ads/sample.csv:${line}: id: duplicate id ${id}: member ad ${id} (database) has it too`,
      );
      expect(log.at(-1)).toMatch(/^Publishing for 2026-11-22 failed after [\d.]+ s \(a clash\): /);
      // The site stays as it was.
      expect(page(adPath('California', 'San Diego', id))).toContain('Tacos and a long walk');
    } finally {
      writeFixtureFile(fixture.dir, 'ads/sample.csv', csv);
      await setMemberAdStatus(t, id, 'deleted');
      await publish();
    }
  }, 90_000);

  test('a member ad whose city is gone is left out with a warning; the rest is published', async () => {
    const citiesFile = join(fixture.dir, 'cities/Oregon.csv');
    const cities = readFileSync(citiesFile, 'utf8');
    const lastCity = cities.trimEnd().split('\n').at(-1)!.split(',')[0]!;
    const orphan = await insertMemberAd(t, {
      state: 'Oregon',
      city: lastCity,
      title: 'Kayak trips',
    });
    await publish();
    expect(page(adPath('Oregon', lastCity, orphan))).toContain('Kayak trips');
    // An editor takes the city off the list; meanwhile another ad is approved.
    writeFixtureFile(
      fixture.dir,
      'cities/Oregon.csv',
      `${cities.trimEnd().split('\n').slice(0, -1).join('\n')}\n`,
    );
    const other = await insertMemberAd(t, {
      state: 'Oregon',
      city: 'Portland',
      title: 'Record fairs',
    });
    try {
      log.length = 0;
      await publish();
      expect(log.filter((line) => line.startsWith('Warning:'))).toEqual([
        `Warning: member ad ${orphan} (database) is left out of the site: city: unknown city '${lastCity}' in Oregon; add it to content/cities/Oregon.csv first`,
      ]);
      expect(page(adPath('Oregon', 'Portland', other))).toContain('Record fairs');
      expect(existsSync(pageFile(adPath('Oregon', lastCity, orphan)))).toBe(false);
    } finally {
      writeFixtureFile(fixture.dir, 'cities/Oregon.csv', cities);
      await setMemberAdStatus(t, orphan, 'deleted');
      await setMemberAdStatus(t, other, 'deleted');
      await publish();
    }
  }, 90_000);

  test('a term for review passes (a moderator approved it); a refused term leaves the ad out', async () => {
    const approved = await insertMemberAd(t, {
      state: 'Florida',
      city: 'Miami',
      title: 'Flower arrangement class, anyone?',
    });
    const refused = await insertMemberAd(t, {
      state: 'Florida',
      city: 'Miami',
      title: 'Escort wanted',
    });
    try {
      log.length = 0;
      await publish();
      expect(page(adPath('Florida', 'Miami', approved))).toContain('Flower arrangement class');
      expect(existsSync(pageFile(adPath('Florida', 'Miami', refused)))).toBe(false);
      expect(log.filter((line) => line.startsWith('Warning:'))).toEqual([
        `Warning: member ad ${refused} (database) is left out of the site: title: contains the blocked term 'escort' (content/policy/refused-terms.txt)`,
      ]);
    } finally {
      await setMemberAdStatus(t, approved, 'deleted');
      await setMemberAdStatus(t, refused, 'deleted');
      await publish();
    }
  }, 60_000);

  test('ads hidden by reports leave the site at the next publish and come back when unhidden', async () => {
    const memberAd = await insertMemberAd(t, {
      state: 'Washington',
      city: 'Seattle',
      title: 'Ferry rides and chowder',
    });
    // An editor's ad of the fixture's CSV, by its first row.
    const [editorAd] = parse(readFileSync(join(fixture.dir, 'ads', 'sample.csv'), 'utf8'), {
      columns: true,
    }) as Array<{ id: string; state: string; city: string; title: string }>;
    const editorPath = adPath(editorAd!.state, editorAd!.city, Number(editorAd!.id));
    const memberPath = adPath('Washington', 'Seattle', memberAd);
    // Hidden and shown again as the reports and a moderator's decision do, through the store.
    const hide = (id: number, kind: 'member' | 'editor') =>
      t.store.hiddenAds.hideByReports({ adId: id, kind, why: 'reports' }, '2026-11-22T10:00:00Z');
    const unhideBoth = async () => {
      await t.store.hiddenAds.unhide(memberAd);
      await t.store.hiddenAds.unhide(Number(editorAd!.id));
    };
    try {
      await publish();
      expect(page(memberPath)).toContain('Ferry rides and chowder');
      expect(existsSync(pageFile(editorPath))).toBe(true);
      const activeBefore = /(\d+) active ads/.exec(page('/'))![1];

      await hide(memberAd, 'member');
      await hide(Number(editorAd!.id), 'editor');
      await publish('hidden by reports');
      for (const path of [memberPath, editorPath]) {
        expect(existsSync(pageFile(path))).toBe(false);
        expect((await app.request(`http://localhost${path}`)).status).toBe(404);
      }
      expect(page(cityPath('Washington', 'Seattle'))).not.toContain('Ferry rides');
      expect(page(cityPath(editorAd!.state, editorAd!.city))).not.toContain(editorAd!.title);
      expect(page('/')).toContain(`${Number(activeBefore) - 2} active ads`);

      // npm run build reads the same table: --if-needed sees the hiding end.
      expect(npmRunBuild('--if-needed', ...databaseArgs)).toContain('Build finished');
      expect(npmRunBuild('--if-needed', ...databaseArgs)).toContain('is up to date');
      await unhideBoth();
      expect(npmRunBuild('--if-needed', ...databaseArgs)).toContain('Build finished');
      expect(page(memberPath)).toContain('Ferry rides and chowder');
      expect(page(editorPath)).toContain(editorAd!.title.replaceAll("'", '&#x27;'));
      expect(page('/')).toContain(`${activeBefore} active ads`);
    } finally {
      await unhideBoth();
      await setMemberAdStatus(t, memberAd, 'deleted');
      await publish();
    }
  }, 180_000);

  test('npm run build publishes member ads too; --if-needed sees them change', async () => {
    // The publisher's builds record the member ads as not checked: the first --if-needed build
    // checks them, and then the site is up to date.
    expect(npmRunBuild('--if-needed', ...databaseArgs)).toContain('Build finished');
    expect(npmRunBuild('--if-needed', ...databaseArgs)).toContain('is up to date');
    const id = await insertMemberAd(t, { state: 'Texas', city: 'Houston', title: 'Salsa lessons' });
    try {
      expect(npmRunBuild('--if-needed', ...databaseArgs)).toContain('Build finished');
      expect(page(adPath('Texas', 'Houston', id))).toContain('Salsa lessons');
      expect(npmRunBuild('--if-needed', ...databaseArgs)).toContain('is up to date');
      // Another database, that does not exist: no member ads, and no file made.
      const absent = join(work, 'absent', 'none.sqlite');
      npmRunBuild('--database', absent);
      expect(existsSync(pageFile(adPath('Texas', 'Houston', id)))).toBe(false);
      expect(existsSync(absent)).toBe(false);
    } finally {
      await setMemberAdStatus(t, id, 'deleted');
      await publish();
    }
  }, 120_000);

  test('publishes in the warm publisher write what a build from nothing writes', async () => {
    const warmBuilds = publisher.warmBuilds;
    const first = await insertMemberAd(t, {
      state: 'Oregon',
      city: 'Portland',
      title: 'Bike rides along the Willamette',
    });
    const ids = [first];
    try {
      await publish(`approved ad ${first}`);
      // A second publish in the same process: nothing of the first may linger in it.
      ids.push(await insertMemberAd(t, { state: 'Texas', city: 'Austin', title: 'Tacos at dawn' }));
      await setMemberAdStatus(t, first, 'deleted');
      await publish(`approved ad ${ids[1]}, deleted ad ${first}`);
      // The small site's publishes ran in the process the publisher keeps between publishes.
      expect(publisher.warmBuilds).toBe(warmBuilds + 2);
      expect(existsSync(pageFile(adPath('Oregon', 'Portland', first)))).toBe(false);
      expect(page(adPath('Texas', 'Austin', ids[1]!))).toContain('Tacos at dawn');
      const warmSite = tree();
      // Without the last build's manifest every page is rendered again, by a build of its own
      // (not known to be small: pipeline/build-plan.ts), and written only where its bytes differ.
      rmSync(join(outDir, MANIFEST_FILE));
      rmSync(pageHashFileOf(join(outDir, MANIFEST_FILE)));
      await publish('from nothing');
      expect(publisher.warmBuilds).toBe(warmBuilds + 2);
      expect(changedFiles(warmSite, tree())).toEqual([]);
    } finally {
      for (const id of ids) await setMemberAdStatus(t, id, 'deleted');
      await publish();
    }
  }, 120_000);

  // The publisher's own mechanics (its daily start, coalescing, pages renamed over) are the same
  // whatever the store: they run once, on SQLite.
  publisherTest(
    'at start-up the site is published again when it was built for another day',
    async () => {
      const builds = publisher.builds;
      publisher.startDaily();
      publisher.stop();
      await publisher.idle();
      expect(publisher.builds).toBe(builds);
      try {
        buildDate = '2026-11-23';
        publisher.startDaily();
        publisher.stop();
        await publisher.idle();
        expect(publisher.builds).toBe(builds + 1);
        expect(log.at(-1)).toMatch(
          /^Published the site for 2026-11-23 in [\d.]+ s \(the site was built for 2026-11-22; today is 2026-11-23\)\.$/,
        );
        expect(JSON.parse(readFileSync(join(outDir, 'build-stamp.json'), 'utf8'))).toMatchObject({
          buildDate: '2026-11-23',
        });
      } finally {
        buildDate = BUILD_DATE;
        await publish();
      }
    },
    60_000,
  );

  publisherTest(
    'requests during a build are coalesced into one more build, and all resolve',
    async () => {
      const builds = publisher.builds;
      const first = publisher.publish('starts a build');
      const during = Array.from({ length: 5 }, (_, index) => publisher.publish(`request ${index}`));
      const outcomes = await Promise.all([first, ...during]);
      expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
      expect(publisher.builds - builds).toBe(2);
      expect(log.at(-1)).toMatch(/\(request 0 and 4 more\)\.$/);
    },
    60_000,
  );

  publisherTest(
    'a reader never gets a partial page while publishing rewrites it',
    async () => {
      const id = await insertMemberAd(t, {
        state: 'New York',
        city: 'New York City',
        title: 'Jazz',
      });
      await publish();
      const paths = ['/', statePath('New York'), cityPath('New York', 'New York City')];
      let reads = 0;
      let served = 0;
      const failures: string[] = [];
      const versions = new Set<string>();
      let publishing = true;
      const reader = (async () => {
        while (publishing) {
          // In-process requests for pages may finish without the event loop turning: let it turn,
          // so the build's process is heard from.
          await new Promise((resolve) => setImmediate(resolve));
          for (const path of paths) {
            const html = page(path);
            reads += 1;
            if (!html.endsWith('</html>')) failures.push(`${path}: read ${html.length} bytes`);
            versions.add(`${path}\n${html}`);
            const answer = await app.request(`http://localhost${path}`);
            const body = await answer.text();
            served += 1;
            if (answer.status !== 200 || !body.endsWith('</html>'))
              failures.push(`${path}: answered ${answer.status} with ${body.length} bytes`);
          }
        }
      })();
      /** The whole of an open file, read again from its start. */
      const readOpen = (fd: number) => {
        const bytes = Buffer.alloc(fstatSync(fd).size);
        readSync(fd, bytes, 0, bytes.length, 0);
        return bytes.toString('utf8');
      };
      try {
        for (const status of ['deleted', 'live', 'deleted', 'live'] as const) {
          // A reader that opened a page before the publish keeps reading that page, whole: the new
          // one is another file, renamed over it, never the old file rewritten.
          const opened = paths.map((path) => {
            const fd = openSync(pageFile(path), 'r');
            return { path, fd, before: readOpen(fd) };
          });
          await setMemberAdStatus(t, id, status);
          await publish(`ad ${id} ${status}`);
          for (const { path, fd, before } of opened) {
            if (readOpen(fd) !== before) failures.push(`${path}: rewritten in place`);
            closeSync(fd);
            if (page(path) === before) failures.push(`${path}: not published`);
          }
        }
      } finally {
        publishing = false;
        await reader;
      }
      expect(reads).toBeGreaterThan(100);
      expect(served).toBeGreaterThan(100);
      expect(failures.slice(0, 5)).toEqual([]);
      // The reader saw the pages change (with and without the ad), each version whole.
      expect(versions.size).toBeGreaterThanOrEqual(6);
      await setMemberAdStatus(t, id, 'deleted');
      await publish();
    },
    120_000,
  );
});
