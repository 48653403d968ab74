// The upload plan (server/publishing/site-bucket/upload-plan.ts): only what changed is put, in an
// order that never links to nothing, deletions last, and a mass delete stops the publish.
import { describe, expect, test } from 'vitest';
import {
  deleteLimit,
  parseDeleteLimit,
  planUpload,
} from '../../../../server/publishing/site-bucket/upload-plan.ts';
import {
  cacheControlOf,
  contentTypeOf,
  kindOf,
  urlPathOf,
  type SiteObject,
} from '../../../../server/publishing/site-bucket/site-objects.ts';

const object = (path: string, digest = 'd1'): SiteObject => ({
  path,
  digest,
  size: digest.length,
  contentType: contentTypeOf(path),
  encoding: 'identity',
});
const manifestOf = (...objects: SiteObject[]) => new Map(objects.map((each) => [each.path, each]));

const AD = 'city/California/Los Angeles/ad/100000001/index.html';
const CITY = 'city/California/Los Angeles/index.html';
const FEED = 'city/California/Los Angeles/feed.xml';
const STATE = 'state/California/index.html';
const ASSET = 'assets/entries/page-abc123.js';

test('only the files whose bytes changed are put, and the unchanged are counted', () => {
  const outcome = planUpload({
    candidates: [object(CITY, 'new'), object(STATE, 'same'), object(AD, 'new')],
    removed: [],
    manifest: manifestOf(object(CITY, 'old'), object(STATE, 'same')),
    maxDeletes: 10,
  });
  expect(outcome.kind).toBe('plan');
  if (outcome.kind !== 'plan') return;
  expect(outcome.plan.puts.flatMap((group) => group.objects.map((each) => each.path))).toEqual([
    AD,
    CITY,
  ]);
  expect(outcome.plan.unchanged).toBe(1);
});

test('assets go first, then ad pages, then the pages, feeds and sitemaps that link to them; deletions last', () => {
  const outcome = planUpload({
    candidates: [
      object('sitemap.xml'),
      object(FEED),
      object('index.html'),
      object(STATE),
      object(CITY),
      object(AD),
      object(ASSET),
      object('favicon.svg'),
    ],
    removed: ['assets/entries/page-old.js', 'city/California/Los Angeles/ad/100000002/index.html'],
    manifest: manifestOf(
      object('assets/entries/page-old.js'),
      object('city/California/Los Angeles/ad/100000002/index.html'),
    ),
    maxDeletes: 10,
  });
  if (outcome.kind !== 'plan') throw new Error(outcome.message);
  expect(outcome.plan.puts.map((group) => [group.kind, group.objects.map((each) => each.path)]))
    .toMatchInlineSnapshot(`
      [
        [
          "asset",
          [
            "assets/entries/page-abc123.js",
            "favicon.svg",
          ],
        ],
        [
          "ad",
          [
            "city/California/Los Angeles/ad/100000001/index.html",
          ],
        ],
        [
          "page",
          [
            "city/California/Los Angeles/index.html",
            "index.html",
            "state/California/index.html",
          ],
        ],
        [
          "feed",
          [
            "city/California/Los Angeles/feed.xml",
          ],
        ],
        [
          "site-file",
          [
            "sitemap.xml",
          ],
        ],
      ]
    `);
  // The page that went before what it linked to.
  expect(outcome.plan.deletes).toEqual([
    'city/California/Los Angeles/ad/100000002/index.html',
    'assets/entries/page-old.js',
  ]);
});

test('a path the bucket never had is not deleted, nor one the build still has', () => {
  const outcome = planUpload({
    candidates: [object(CITY)],
    removed: [CITY, 'never-there.html'],
    manifest: manifestOf(object(CITY)),
    maxDeletes: 10,
  });
  if (outcome.kind !== 'plan') throw new Error(outcome.message);
  expect(outcome.plan.deletes).toEqual([]);
});

test('a publish that would delete more than the limit stops and says why', () => {
  const pages = Array.from({ length: 12 }, (_, index) => object(`city/A/B/ad/${index}/index.html`));
  const outcome = planUpload({
    candidates: [object('index.html', 'empty')],
    removed: pages.map((page) => page.path),
    manifest: manifestOf(...pages),
    maxDeletes: 11,
  });
  expect(outcome).toEqual({
    kind: 'braked',
    deletes: 12,
    message:
      'This publish would delete 12 of the 12 objects of the site in the bucket, more than ' +
      'SITE_MAX_DELETES allows (11): nothing was put or deleted. If the site is meant to lose ' +
      'that much, publish again with SITE_MAX_DELETES=12.',
  });
  // At the limit, it goes through.
  const limit = planUpload({
    candidates: [],
    removed: pages.map((page) => page.path),
    manifest: manifestOf(...pages),
    maxDeletes: 12,
  });
  expect(limit.kind).toBe('plan');
});

describe('SITE_MAX_DELETES', () => {
  test.each([
    [undefined, 1_000_000, 100_000],
    ['', 5_000, 1_000],
    ['10%', 1_000_000, 100_000],
    ['2.5%', 1_000_000, 25_000],
    ['250', 1_000_000, 250],
    ['0', 10, 0],
  ])('%s on a site of %i objects allows %i deletes', (text, objects, allowed) => {
    expect(deleteLimit(parseDeleteLimit(text)!, objects)).toBe(allowed);
  });

  test('anything else is refused', () => {
    expect(parseDeleteLimit('lots')).toBeUndefined();
    expect(parseDeleteLimit('-1')).toBeUndefined();
  });
});

describe('an object of the site', () => {
  test('its URL is its decoded path encoded once, without index.html', () => {
    expect(urlPathOf('index.html')).toBe('/');
    expect(urlPathOf("city/Idaho/Coeur d'Alene/index.html")).toBe("/city/Idaho/Coeur%20d'Alene");
    expect(urlPathOf('city/New Mexico/Española/feed.xml')).toBe(
      '/city/New%20Mexico/Espa%C3%B1ola/feed.xml',
    );
    expect(urlPathOf('city/A+B/C/index.html')).toBe('/city/A%2BB/C');
  });

  test('its headers are those the server sends for the same file', () => {
    expect([contentTypeOf(CITY), cacheControlOf(CITY)]).toEqual([
      'text/html; charset=utf-8',
      'public, max-age=60, stale-while-revalidate=60',
    ]);
    expect(contentTypeOf(FEED)).toBe('application/atom+xml; charset=utf-8');
    expect([contentTypeOf(ASSET), cacheControlOf(ASSET)]).toEqual([
      'text/javascript; charset=utf-8',
      'public, max-age=31536000, immutable',
    ]);
    expect(cacheControlOf('photos/ab/abcdef-640.webp')).toBe('public, max-age=31536000, immutable');
    expect(kindOf('transparency.csv')).toBe('feed');
    expect(kindOf('sitemaps/2.xml')).toBe('site-file');
  });
});
