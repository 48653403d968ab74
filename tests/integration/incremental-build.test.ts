// Incremental builds: after one change to the content, the build rewrites only the pages that
// change and its output is byte for byte the output of a full build of the same content.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeContentFixture, writeFixtureFile } from '../helpers/content-fixture.ts';
import { buildSite, changedFiles, filesWithHashes } from '../helpers/vite-output.ts';

let fixture: ReturnType<typeof makeContentFixture>;
let work: string;
let builds = 0;

// No `--full` here: it also rebuilds the client assets in dist/, which the e2e tests' site copies.
// A build into empty folders renders and compiles everything, which is what a full build does.
function build(out = join(work, 'incremental'), cache = join(work, 'incremental-cache')) {
  const result = buildSite({
    date: '2026-11-22',
    content: fixture.dir,
    out,
    cache,
    // No member ads: a developer's data/localboard.sqlite must not change what is built here.
    database: ['--database', join(work, 'no-database.sqlite')],
  });
  const summary = /(\d+) written, (\d+) unchanged, (\d+) removed; feeds: (\d+) written/.exec(
    result.stdout,
  );
  return {
    written: Number(summary?.[1]),
    unchanged: Number(summary?.[2]),
    removed: Number(summary?.[3]),
    feedsWritten: Number(summary?.[4]),
  };
}

/** Every file of a built site, by path, with a hash of its bytes. */
const tree = (out: string) => filesWithHashes(join(out, 'site'));

/** The output of a full build of the fixture as it is now, in fresh folders. */
function fullBuildTree(): Map<string, string> {
  builds += 1;
  const out = join(work, `full-${builds}`);
  build(out, join(work, `full-${builds}-cache`));
  return tree(out);
}

function editFixture(file: string, edit: (text: string) => string) {
  writeFixtureFile(fixture.dir, file, edit(readFileSync(join(fixture.dir, file), 'utf8')));
}

const AD_ROW = /^(\d+),California,Los Angeles,.*$/m;

beforeAll(() => {
  fixture = makeContentFixture();
  work = mkdtempSync(join(tmpdir(), 'localboard-incremental-'));
  build();
}, 180_000);

afterAll(() => {
  fixture.cleanup();
  rmSync(work, { recursive: true, force: true });
});

describe('incremental build', () => {
  test('with nothing changed writes no page', () => {
    const before = tree(join(work, 'incremental'));
    expect(build()).toMatchObject({ written: 0, removed: 0, feedsWritten: 0 });
    expect(changedFiles(before, tree(join(work, 'incremental')))).toEqual([]);
  });

  test("changing an ad rewrites its page, its city's list and feed, and matches a full build", () => {
    const before = tree(join(work, 'incremental'));
    const id = AD_ROW.exec(readFileSync(join(fixture.dir, 'ads/sample.csv'), 'utf8'))![1]!;
    // A visitor's download of the ad's page, under way while the site is published.
    const page = join(work, `incremental/site/city/California/Los Angeles/ad/${id}/index.html`);
    const oldPage = readFileSync(page, 'utf8');
    const download = openSync(page, 'r');
    editFixture('ads/sample.csv', (text) =>
      text.replace(
        new RegExp(`^(${id},California,Los Angeles,\\d+,\\w+,)[^,]*,`, 'm'),
        '$1A new title for this ad,',
      ),
    );
    const result = build();
    const after = tree(join(work, 'incremental'));
    expect(changedFiles(before, after)).toEqual([
      `city/California/Los Angeles/ad/${id}/index.html`,
      'city/California/Los Angeles/feed.xml',
      'city/California/Los Angeles/index.html',
    ]);
    expect(result.written).toBe(2);
    expect(result.feedsWritten).toBe(1);
    // Replaced whole (the first build wrote its files in place): the download reads the old page
    // to its end, and the next visitor gets the new one.
    expect(readFileSync(download, 'utf8')).toBe(oldPage);
    closeSync(download);
    expect(readFileSync(page, 'utf8')).toContain('A new title for this ad');
    expect(
      readFileSync(join(work, 'incremental/site/city/California/Los Angeles/feed.xml'), 'utf8'),
    ).toContain('<title type="text">A new title for this ad</title>');
    expect(after).toEqual(fullBuildTree());
  });

  test('adding an ad writes its page and the pages that count ads, and matches a full build', () => {
    const before = tree(join(work, 'incremental'));
    editFixture(
      'ads/sample.csv',
      (text) =>
        `${text}9999,Nevada,Las Vegas,35,m4w,Coffee on the Strip?,A plain new ad for the test.,,false,2026-11-01,2027-05-01,true\n`,
    );
    build();
    const after = tree(join(work, 'incremental'));
    expect(changedFiles(before, after)).toEqual([
      'about/top-cities/index.html',
      // The cities whose nearby list shows Las Vegas with its count (docs/product.md section 3).
      'city/California/Los Angeles/index.html',
      'city/Nevada/Henderson/index.html',
      'city/Nevada/Las Vegas/ad/9999/index.html',
      'city/Nevada/Las Vegas/feed.xml',
      'city/Nevada/Las Vegas/index.html',
      'city/Nevada/North Las Vegas/index.html',
      'city/Nevada/Paradise/index.html',
      'index.html',
      'state/Nevada/index.html',
    ]);
    expect(after).toEqual(fullBuildTree());
  });

  test("a city's first ad puts it in its neighbours' nearby lists, and matches a full build", () => {
    const before = tree(join(work, 'incremental'));
    editFixture(
      'ads/sample.csv',
      (text) =>
        `${text}9998,Nevada,Henderson,41,w4m,Hiking near the lake?,A plain new ad for the test.,,false,2026-11-01,2027-05-01,true\n`,
    );
    build();
    const after = tree(join(work, 'incremental'));
    const changed = changedFiles(before, after);
    expect(changed).toContain('city/Nevada/Henderson/ad/9998/index.html');
    // Las Vegas's page now lists Henderson among its nearby cities; Reno's list, too far, does not.
    expect(changed).toContain('city/Nevada/Las Vegas/index.html');
    expect(
      readFileSync(join(work, 'incremental/site/city/Nevada/Las Vegas/index.html'), 'utf8'),
    ).toContain('href="/city/Nevada/Henderson"');
    expect(changed).not.toContain('city/Nevada/Reno/index.html');
    expect(after).toEqual(fullBuildTree());
    editFixture('ads/sample.csv', (text) => text.replace(/^9998,.*\n/m, ''));
    build();
    expect(tree(join(work, 'incremental'))).toEqual(fullBuildTree());
  });

  test('removing an ad removes its page and matches a full build', () => {
    editFixture('ads/sample.csv', (text) => text.replace(/^9999,.*\n/m, ''));
    const result = build();
    const after = tree(join(work, 'incremental'));
    expect(after.has('city/Nevada/Las Vegas/ad/9999/index.html')).toBe(false);
    expect(result.removed).toBe(1);
    expect(after).toEqual(fullBuildTree());
  });

  test("changing a state's flag rewrites that state's pages only, and matches a full build", () => {
    const before = tree(join(work, 'incremental'));
    editFixture('states/Vermont.md', (text) =>
      text.replace(
        /^footerButton: (\w+)$/m,
        (_line, value: string) => `footerButton: ${value === 'post' ? 'join' : 'post'}`,
      ),
    );
    build();
    const after = tree(join(work, 'incremental'));
    const changed = changedFiles(before, after);
    expect(changed.length).toBeGreaterThan(0);
    expect(
      changed.every(
        (path) => path.startsWith('state/Vermont/') || path.startsWith('city/Vermont/'),
      ),
    ).toBe(true);
    expect(after).toEqual(fullBuildTree());
  });

  test('removing a city removes its pages and its sitemap entry, and matches a full build', () => {
    const lines = readFileSync(join(fixture.dir, 'cities/Vermont.csv'), 'utf8')
      .trimEnd()
      .split('\n');
    const removedCity = lines.at(-1)!.split(',')[0]!;
    writeFixtureFile(fixture.dir, 'cities/Vermont.csv', `${lines.slice(0, -1).join('\n')}\n`);
    const result = build();
    const after = tree(join(work, 'incremental'));
    expect(after.has(`city/Vermont/${removedCity}/index.html`)).toBe(false);
    expect(after.has(`city/Vermont/${removedCity}/feed.xml`)).toBe(false);
    // Its page and its feed.
    expect(result.removed).toBe(2);
    expect(readFileSync(join(work, 'incremental', 'site', 'sitemap.xml'), 'utf8')).not.toContain(
      encodeURIComponent(removedCity),
    );
    expect(after).toEqual(fullBuildTree());
  });
});
