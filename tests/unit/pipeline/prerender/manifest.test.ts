// Pins the build manifest: which render groups' inputs (as the page folders declare them) a content
// change touches, and the file's round trip.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { useContent } from '../../../../core/content/index.ts';
import type { CompiledAd, CompiledContent, CompiledState } from '../../../../core/content/index.ts';
import {
  pageHashFileOf,
  readManifest,
  writeManifest,
} from '../../../../pipeline/prerender/manifest.ts';
import type { BuildManifest } from '../../../../pipeline/prerender/manifest.ts';
import { listRenderGroups, pagesOfGroup } from '../../../../pipeline/prerender/render-groups.ts';

const card = (title: string) => ({ title, text: `${title} text.` });
const cards = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => card(`${prefix} ${index + 1}`));

/** GeoNames' coordinates of the fixture's cities. */
const COORDINATES: Record<string, { latitude: number; longitude: number }> = {
  Manchester: { latitude: 42.99564, longitude: -71.45479 },
  Nashua: { latitude: 42.76537, longitude: -71.46757 },
  Burlington: { latitude: 44.47588, longitude: -73.21207 },
  'South Burlington': { latitude: 44.46699, longitude: -73.17096 },
};

const state = (
  name: CompiledState['name'],
  code: string,
  cities: Array<[string, number]>,
): CompiledState => ({
  name,
  code,
  headerMenu: 'dropdown',
  footerButton: 'join',
  brandPrefix: true,
  robots: 'index, follow',
  ageAssurance: 'none',
  guideHtml: `<p>About ${name}.</p>`,
  cities: cities.map(([city, population]) => ({ name: city, population, ...COORDINATES[city]! })),
});

const AD: CompiledAd = {
  id: 1001,
  state: 'Vermont',
  city: 'Burlington',
  age: 30,
  seeks: 'w4m',
  title: 'Coffee by the lake',
  description: 'A walk and a coffee.',
  images: [],
  featured: false,
  postedAt: '2026-11-01',
  expiresAt: '2026-12-01',
  sample: true,
};

/** Two states of two cities each, one ad in Burlington. */
function makeContent(): CompiledContent {
  return {
    buildDate: '2026-11-22',
    site: {
      brand: 'Localboard',
      baseUrl: 'https://example.org',
      contactEmail: 'help@example.org',
      tagline: 'Local personals',
      description: 'Personal ads near you.',
      popularCities: [
        { state: 'Vermont', city: 'Burlington' },
        { state: 'Vermont', city: 'South Burlington' },
        { state: 'New Hampshire', city: 'Manchester' },
        { state: 'New Hampshire', city: 'Nashua' },
      ],
      hero: { title: 'Meet locally', subtitle: 'Browse ads in your city.' },
      whyChoose: cards('Why', 3),
      howItWorks: cards('Step', 3),
      features: cards('Feature', 6),
      faq: Array.from({ length: 8 }, (_, index) => ({
        question: `Question ${index + 1}?`,
        answer: `Answer ${index + 1}.`,
      })),
      closing: { title: 'Join today', text: 'It is free.' },
    },
    states: [
      state('New Hampshire', 'NH', [
        ['Manchester', 115_000],
        ['Nashua', 91_000],
      ]),
      state('Vermont', 'VT', [
        ['Burlington', 45_000],
        ['South Burlington', 20_000],
      ]),
    ],
    guides: [],
    pages: {
      terms: {
        title: 'Terms',
        description: 'Terms of use.',
        lastUpdated: '2026-01-01',
        html: '<p>Terms.</p>',
      },
      privacy: {
        title: 'Privacy',
        description: 'Privacy policy.',
        lastUpdated: '2026-01-01',
        html: '<p>Privacy.</p>',
      },
      about: { title: 'About', description: 'About us.', html: '<p>About.</p>' },
    },
    adCounts: { Vermont: { Burlington: 1 } },
    activeAds: 1,
    policyTerms: { refuse: [], review: [] },
    scamSignals: { lists: {}, signals: [] },
  };
}

function stateOf(content: CompiledContent, name: string): CompiledState {
  const found = content.states.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no state ${name}`);
  return found;
}

/** Group key → inputs, for that content. */
function signatures(content: CompiledContent): Map<string, string> {
  useContent(content, [AD]);
  return new Map(listRenderGroups().map((group) => [group.key, group.inputs]));
}

/** The fixture's state and city tasks, in sitemap order. */
const PLACE_TASKS = [
  'state:New Hampshire',
  'city:New Hampshire|Manchester',
  'city:New Hampshire|Nashua',
  'state:Vermont',
  'city:Vermont|Burlington',
  'city:Vermont|South Burlington',
];

/** The ids of the tasks whose signature differs once `change` is made to the content. */
function changedBy(change: (content: CompiledContent) => void): string[] {
  const before = signatures(makeContent());
  const content = makeContent();
  change(content);
  const after = signatures(content);
  expect([...after.keys()]).toEqual([...before.keys()]);
  return [...before.keys()].filter((id) => before.get(id) !== after.get(id));
}

describe('render group inputs', () => {
  test('sign the site-wide group, each state page and each city, in sitemap order', () => {
    const signed = signatures(makeContent());
    expect([...signed.keys()]).toEqual(['site', ...PLACE_TASKS]);
    // The site-wide pages are always looked at.
    expect(signed.get('site')).toBe('');
    const others = [...signed].filter(([id]) => id !== 'site').map(([, signature]) => signature);
    expect(others.every((signature) => signature !== '')).toBe(true);
    expect(new Set(others).size).toBe(others.length);
  });

  test('are the same for the same content', () => {
    expect(changedBy(() => {})).toEqual([]);
  });

  test("a state's footer button changes its state page and its cities, and nothing of the other state", () => {
    expect(changedBy((content) => (stateOf(content, 'Vermont').footerButton = 'post'))).toEqual([
      'state:Vermont',
      'city:Vermont|Burlington',
      'city:Vermont|South Burlington',
    ]);
  });

  test("a state's header menu changes its state page and its cities, and nothing of the other state", () => {
    expect(changedBy((content) => (stateOf(content, 'New Hampshire').headerMenu = 'none'))).toEqual(
      ['state:New Hampshire', 'city:New Hampshire|Manchester', 'city:New Hampshire|Nashua'],
    );
  });

  // Every city page lists its nearest cities with ads, with their distances and counts.
  test("a neighbour's first ad changes the pages of the cities that now list it", () => {
    expect(changedBy((content) => (content.adCounts['New Hampshire'] = { Nashua: 1 }))).toEqual([
      'state:New Hampshire',
      'city:New Hampshire|Manchester',
      'city:Vermont|Burlington',
      'city:Vermont|South Burlington',
    ]);
  });

  test("a city's last ad leaving changes every city that listed it", () => {
    expect(changedBy((content) => (content.adCounts = {}))).toEqual([
      'city:New Hampshire|Manchester',
      'city:New Hampshire|Nashua',
      'state:Vermont',
      'city:Vermont|South Burlington',
    ]);
  });

  test("a neighbour's count changes the cities that show it, and nothing else", () => {
    expect(changedBy((content) => (content.adCounts = { Vermont: { Burlington: 2 } }))).toEqual([
      'city:New Hampshire|Manchester',
      'city:New Hampshire|Nashua',
      'state:Vermont',
      'city:Vermont|South Burlington',
    ]);
  });

  test("a city's population changes that city's task and no other city's", () => {
    // The state page is signed with its whole state, cities (listed most populous first) included.
    expect(
      changedBy((content) => (stateOf(content, 'Vermont').cities[1]!.population = 21_000)),
    ).toEqual(['state:Vermont', 'city:Vermont|South Burlington']);
  });

  test("a state's guide changes its state page only (city pages do not show it)", () => {
    const changed = changedBy(
      (content) => (stateOf(content, 'Vermont').guideHtml = '<p>New guide.</p>'),
    );
    expect(changed).toEqual(['state:Vermont']);
  });

  test("a city's ad count changes its state page, and of the other state only the cities that list it nearby", () => {
    const changed = changedBy((content) => {
      content.adCounts = { Vermont: { Burlington: 1, 'South Burlington': 3 } };
    });
    expect(changed).toContain('state:Vermont');
    // Manchester and Nashua list South Burlington among their nearby cities, with its count.
    expect(changed.filter((id) => id.includes('New Hampshire'))).toEqual([
      'city:New Hampshire|Manchester',
      'city:New Hampshire|Nashua',
    ]);
  });

  test('the site settings change every task but the site task', () => {
    expect(changedBy((content) => (content.site.brand = 'Otherboard'))).toEqual(PLACE_TASKS);
  });
});

describe('render groups', () => {
  test("merge a city's list pages and its ads' pages into one group, URLs from the routes", () => {
    useContent(makeContent(), [AD]);
    const paths = (key: string) => {
      const group = listRenderGroups().find((candidate) => candidate.key === key)!;
      return [...pagesOfGroup(group)].map((page) => `${page.page.id} ${page.path}`);
    };
    expect(paths('city:Vermont|Burlington')).toEqual([
      'ad /city/Vermont/Burlington/ad/1001',
      'city /city/Vermont/Burlington',
    ]);
    expect(paths('city:Vermont|South Burlington')).toEqual([
      'city /city/Vermont/South%20Burlington',
    ]);
    expect(paths('state:New Hampshire')).toEqual(['state /state/New%20Hampshire']);
    expect(paths('site')).toEqual([
      'about /about',
      'index /',
      'legal /terms',
      'legal /privacy',
      'signin /signin',
      'signup /signup',
      'success /success',
      'transparency /transparency',
    ]);
  });
});

describe('the manifest file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'localboard-manifest-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const MANIFEST: BuildManifest = {
    version: 5,
    renderer: 'renderer-hash',
    tasks: {
      site: { signature: '', count: 9, indexable: ['/', '/about'] },
      'city:Vermont|Burlington': {
        signature: 'abc 45000 1 digest',
        count: 2,
        indexable: ['/city/Vermont/Burlington'],
      },
    },
  };

  test('reads back what was written', () => {
    const file = join(dir, 'build-manifest.json');
    writeManifest(file, MANIFEST);
    expect(readManifest(file)).toEqual(MANIFEST);
  });

  test('reads as undefined when missing, not JSON, or of another version', () => {
    expect(readManifest(join(dir, 'missing.json'))).toBeUndefined();
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"version": 4, "renderer": ');
    expect(readManifest(broken)).toBeUndefined();
    const older = join(dir, 'older.json');
    writeFileSync(older, JSON.stringify({ ...MANIFEST, version: 3 }));
    expect(readManifest(older)).toBeUndefined();
  });

  test('has its page hashes in a .pages.txt file beside it', () => {
    expect(pageHashFileOf('/x/build-manifest.json')).toBe('/x/build-manifest.pages.txt');
  });
});
