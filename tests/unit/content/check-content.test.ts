// Pins the problem lines an editor sees for each kind of broken content (conventions 3–5).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectAds, compileContent } from '../../../pipeline/compile/compile.ts';
import { formatProblem } from '../../../pipeline/compile/report.ts';
import {
  makeContentFixture,
  REAL_CONTENT_DIR,
  removeFixtureFile,
  writeFixtureFile,
} from '../../helpers/content-fixture.ts';

const BUILD_DATE = '2026-11-22';
const PROJECT_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const AD_HEADER =
  'id,state,city,age,seeks,title,description,images,featured,postedAt,expiresAt,sample';

let fixture: ReturnType<typeof makeContentFixture>;
beforeEach(() => {
  fixture = makeContentFixture();
});
afterEach(() => {
  fixture.cleanup();
});

const invalid = (name: string) =>
  readFileSync(new URL(`../../fixtures/content-invalid/${name}`, import.meta.url), 'utf8');
const valid = (name: string) =>
  readFileSync(new URL(`../../fixtures/content-valid/${name}`, import.meta.url), 'utf8');
/** Adds an invalid ads file next to the valid sample.csv. */
const addAds = (name: string) => writeFixtureFile(fixture.dir, `ads/${name}`, invalid(name));
/** Replaces the valid Vermont state file. */
const replaceVermont = (name: string) =>
  writeFixtureFile(fixture.dir, 'states/Vermont.md', invalid(name));
const problemLines = () => compileContent(fixture.dir, BUILD_DATE).problems.map(formatProblem);

describe('the valid fixture', () => {
  it('compiles with no problems into all 50 states', () => {
    const published = collectAds();
    const { content, problems, unpublishedAds } = compileContent(
      fixture.dir,
      BUILD_DATE,
      published,
    );
    expect(problems).toEqual([]);
    expect(content?.states).toHaveLength(50);
    expect(content?.states.find((state) => state.name === 'Vermont')?.cities).toHaveLength(5);
    expect(published.ads).toHaveLength(8);
    expect(content?.activeAds).toBe(8);
    expect(unpublishedAds).toBe(0);
  });
});

describe('ads', () => {
  it('reports a header without a required column', () => {
    addAds('missing-column.csv');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/ads/missing-column.csv:1: seeks: missing column 'seeks' in the header row",
      ]
    `);
  });

  it('reports an age under 18', () => {
    addAds('age-17.csv');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/ads/age-17.csv:2: age: must be 18 or over (got 17)",
      ]
    `);
  });

  it("reports a city missing from its state's city list", () => {
    addAds('unknown-city.csv');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/ads/unknown-city.csv:2: city: unknown city 'Los Angelos' in California; add it to content/cities/California.csv first",
      ]
    `);
  });

  it('reports a second ad with the same id', () => {
    addAds('duplicate-id.csv');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/ads/duplicate-id.csv:3: id: duplicate id 9401 (first used at content/ads/duplicate-id.csv:2)",
      ]
    `);
  });

  it('reports a blocked term in the description', () => {
    addAds('blocked-term.csv');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/ads/blocked-term.csv:2: description: contains the blocked term 'generous' (content/policy/review-terms.txt)",
      ]
    `);
  });

  it('reports a refused term written with look-alike letters, naming its file', () => {
    writeFixtureFile(
      fixture.dir,
      'ads/look-alike.csv',
      [
        AD_HEADER,
        '9511,Florida,Miami,45,m4w,Evenings out,"Friendly \u0435sc0rt for dinners and shows.",,false,2026-10-01,2027-04-01,true',
        '',
      ].join('\n'),
    );
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/ads/look-alike.csv:2: description: contains the blocked term 'escort' (content/policy/refused-terms.txt)",
      ]
    `);
  });

  it("never counts the ad's own city or state as a term (Minor, Alabama)", () => {
    writeFixtureFile(
      fixture.dir,
      'cities/Alabama.csv',
      `${readFileSync(`${fixture.dir}/cities/Alabama.csv`, 'utf8').trimEnd()}\nMinor,1094,33.53372,-86.94054,4076468\n`,
    );
    const minorAd = (id: number, city: string) =>
      `${id},Alabama,${city},52,m4w,Minor born and raised,"Living in Minor, AL. Minor is small and quiet.",,false,2026-10-01,2027-04-01,true`;
    writeFixtureFile(
      fixture.dir,
      'ads/minor.csv',
      [AD_HEADER, minorAd(9601, 'Minor'), ''].join('\n'),
    );
    expect(problemLines()).toEqual([]);

    writeFixtureFile(
      fixture.dir,
      'ads/minor.csv',
      [AD_HEADER, minorAd(9601, 'Minor'), minorAd(9602, 'Birmingham'), ''].join('\n'),
    );
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/ads/minor.csv:3: description: contains the blocked term 'minor' (content/policy/review-terms.txt)",
        "content/ads/minor.csv:3: title: contains the blocked term 'minor' (content/policy/review-terms.txt)",
      ]
    `);
  });

  it('reports a date that does not exist', () => {
    addAds('bad-date.csv');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/ads/bad-date.csv:2: postedAt: must be a real date written YYYY-MM-DD (got '2026-02-30')",
      ]
    `);
  });

  it('reports an ad that expires before it is posted', () => {
    addAds('expires-before-posted.csv');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/ads/expires-before-posted.csv:2: expiresAt: must be after postedAt (2026-11-01; got 2026-10-01)",
      ]
    `);
  });

  it('leaves out, without a problem, ads not live on the build date', () => {
    writeFixtureFile(
      fixture.dir,
      'ads/not-live.csv',
      [
        AD_HEADER,
        '9801,Vermont,Burlington,40,m4w,Expired yesterday,Ad text.,,false,2026-06-01,2026-11-21,true',
        '9802,Vermont,Burlington,40,m4w,Expires on the build date,Ad text.,,false,2026-06-01,2026-11-22,true',
        '9803,Vermont,Burlington,40,m4w,Posted tomorrow,Ad text.,,false,2026-11-23,2027-05-01,true',
        '9804,Vermont,Burlington,40,m4w,Posted on the build date,Ad text.,,false,2026-11-22,2027-05-01,true',
        '',
      ].join('\n'),
    );
    const published = collectAds();
    const { content, problems, unpublishedAds } = compileContent(
      fixture.dir,
      BUILD_DATE,
      published,
    );
    expect(problems).toEqual([]);
    expect(unpublishedAds).toBe(3);
    expect(published.ads.filter((ad) => ad.id > 9800).map((ad) => ad.id)).toEqual([9804]);
    expect(content?.adCounts.Vermont?.Burlington).toBe(1);
  });
});

describe('site settings', () => {
  it('reports an unknown placeholder in site.md on its line', () => {
    writeFixtureFile(fixture.dir, 'site.md', invalid('site-unknown-token/site.md'));
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/site.md:13: hero.title: unknown placeholder {{brnad}}; allowed: {{brand}}",
      ]
    `);
  });

  // The brand used to be filled into the settings' JSON text, where its quote ended a string.
  it('fills a brand with a double quote into site.md wherever {{brand}} is written', () => {
    writeFixtureFile(fixture.dir, 'site.md', valid('site-brand-with-quote/site.md'));
    const { content, problems } = compileContent(fixture.dir, BUILD_DATE);
    expect(problems).toEqual([]);
    const site = content?.site;
    expect([site?.brand, site?.hero.title, site?.closing.title]).toMatchInlineSnapshot(`
      [
        "The "Local" Board",
        "Meet people near you on The "Local" Board",
        "Ready to meet someone local on The "Local" Board?",
      ]
    `);
  });
});

describe('scam signals', () => {
  it('names the file, line and field of a signal an editor mistyped', () => {
    writeFixtureFile(
      fixture.dir,
      'policy/scam-signals.txt',
      '# signals\nlist apps: kik\nmoney refuse: cash app\nmony warn: @apps\nmoney warn: @apss me\n',
    );
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/policy/scam-signals.txt:4: family: 'mony' is not one of off-site-contact, money, crypto, codes, content-sales, scam-story",
        "content/policy/scam-signals.txt:5: pattern: no list 'apss' above this line",
      ]
    `);
  });

  it('names the file when it is missing', () => {
    removeFixtureFile(fixture.dir, 'policy/scam-signals.txt');
    expect(problemLines()).toEqual([
      'content/policy/scam-signals.txt:1: file: is missing; the message checks need it',
    ]);
  });
});

describe('states and their city lists', () => {
  it('reports an unknown front-matter key', () => {
    replaceVermont('unknown-flag.md');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/states/Vermont.md:5: footerButtons: unknown field; check the spelling against the schema in core/schemas/",
      ]
    `);
  });

  it('reports a flag value outside its choices', () => {
    replaceVermont('bad-flag-value.md');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/states/Vermont.md:4: headerMenu: must be one of: dropdown, none (got 'sideways')",
      ]
    `);
  });

  it('reports an age assurance flag outside its choices', () => {
    replaceVermont('age-assurance-unknown-value.md');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/states/Vermont.md:8: ageAssurance: must be one of: none, required (got 'yes')",
      ]
    `);
  });

  it("reports an age assurance flag without the law's name and reason", () => {
    replaceVermont('age-assurance-without-law.md');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/states/Vermont.md:8: ageAssurance: required needs ageAssuranceLaw too (the law's name, shown on the state page)",
        "content/states/Vermont.md:8: ageAssurance: required needs ageAssuranceReason too (one line on what the law asks, shown on the state page)",
      ]
    `);
  });

  it('compiles the law and its reason of a state that asks for age checks', () => {
    const content = compileContent(fixture.dir, BUILD_DATE).content;
    const mississippi = content?.states.find((state) => state.name === 'Mississippi');
    expect(mississippi).toMatchObject({
      ageAssurance: 'required',
      ageAssuranceLaw: expect.stringContaining('HB 1126'),
    });
    expect(content?.states.find((state) => state.name === 'Vermont')?.ageAssurance).toBe('none');
  });

  it("reports a trust list file that is no certificate authority's root", () => {
    for (const name of ['age-issuer-not-a-certificate.pem', 'age-issuer-document-signer.pem'])
      writeFixtureFile(fixture.dir, `age-assurance/issuers/${name}`, invalid(name));
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/age-assurance/issuers/age-issuer-document-signer.pem:1: certificate: is not a certificate authority's; add the issuing authority's IACA root, not a document signer's certificate",
        "content/age-assurance/issuers/age-issuer-not-a-certificate.pem:1: certificate: is not a readable X.509 certificate; save the authority's root in PEM form (error:0680009B:asn1 encoding routines::too long)",
      ]
    `);
  });

  it('warns of an expired root of the trust list, without stopping the build', () => {
    writeFixtureFile(
      fixture.dir,
      'age-assurance/issuers/test-iaca.pem',
      readFileSync(
        new URL('../../fixtures/age-assurance/issuers/test-iaca-mississippi.pem', import.meta.url),
        'utf8',
      ),
    );
    expect(compileContent(fixture.dir, BUILD_DATE).warnings).toEqual([]);
    const later = compileContent(fixture.dir, '2045-06-01');
    expect(later.warnings).toMatchInlineSnapshot(`
      [
        "content/age-assurance/issuers/test-iaca.pem:1: validTo: expired on 2045-01-01; replace it with the authority's current root",
      ]
    `);
    expect(later.problems.filter((problem) => problem.file.includes('age-assurance'))).toEqual([]);
  });

  it('reports a state name that does not match the file name', () => {
    replaceVermont('state-name-mismatch.md');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/states/Vermont.md:2: name: must match the file name ('Vermont'; got 'New Hampshire')",
      ]
    `);
  });

  it('reports a state file without its city list', () => {
    removeFixtureFile(fixture.dir, 'cities/Vermont.csv');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/states/Vermont.md:1: file: has no city list; add content/cities/Vermont.csv",
      ]
    `);
  });

  const addVermontCity = (row: string) =>
    writeFixtureFile(
      fixture.dir,
      'cities/Vermont.csv',
      `${readFileSync(`${fixture.dir}/cities/Vermont.csv`, 'utf8').trimEnd()}\n${row}\n`,
    );

  it('takes a city an editor added by hand with its coordinates and no GeoNames id', () => {
    addVermontCity('Lake Bomoseen,1200,43.6495,-73.2137,');
    expect(problemLines()).toEqual([]);
    const vermont = compileContent(fixture.dir, BUILD_DATE).content?.states.find(
      (state) => state.name === 'Vermont',
    );
    expect(vermont?.cities.find((city) => city.name === 'Lake Bomoseen')).toEqual({
      name: 'Lake Bomoseen',
      population: 1200,
      latitude: 43.6495,
      longitude: -73.2137,
    });
  });

  it('reports a latitude of 95 at its file, line and field', () => {
    addVermontCity('Nowhere,1200,95,-73.2,');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/cities/Vermont.csv:7: latitude: must be from -90 to 90 (got 95)",
      ]
    `);
  });

  it('reports a city without coordinates, and one outside the United States', () => {
    addVermontCity('Blank,1200,,,');
    addVermontCity('Swapped,1200,-73.2137,43.6495,');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/cities/Vermont.csv:7: latitude: must be a number of degrees such as 45.5 (got '')",
        "content/cities/Vermont.csv:7: longitude: must be a number of degrees such as 45.5 (got '')",
        "content/cities/Vermont.csv:8: latitude: -73.2137, 43.6495 is outside the United States; check the latitude and longitude (not swapped, west is negative)",
      ]
    `);
  });

  it('reports a city list without its state file', () => {
    removeFixtureFile(fixture.dir, 'states/Vermont.md');
    expect(problemLines()).toMatchInlineSnapshot(`
      [
        "content/cities/Vermont.csv:1: file: has no state file; add content/states/Vermont.md or remove this CSV",
        "content/states/Vermont.md:1: file: is missing; every one of the 50 states needs a state file",
      ]
    `);
  });
});

it('reports the problems of every broken file together, sorted by file and line', () => {
  replaceVermont('unknown-flag.md');
  addAds('duplicate-id.csv');
  addAds('age-17.csv');
  expect(problemLines()).toMatchInlineSnapshot(`
    [
      "content/ads/age-17.csv:2: age: must be 18 or over (got 17)",
      "content/ads/duplicate-id.csv:3: id: duplicate id 9401 (first used at content/ads/duplicate-id.csv:2)",
      "content/states/Vermont.md:5: footerButtons: unknown field; check the spelling against the schema in core/schemas/",
    ]
  `);
});

// A quoted cell may span lines, and YAML errors come with their own line numbers: the problem
// still points at the line the editor has to look at.
describe('line numbers', () => {
  // csv-parse's info.lines is the line a record ends on; an editor needs the line it starts on.
  it('reports a row whose description spans lines at its first line', () => {
    addAds('multiline-row-age-17.csv');
    expect(problemLines()).toEqual([
      'content/ads/multiline-row-age-17.csv:2: age: must be 18 or over (got 17)',
    ]);
  });

  // js-yaml counts from the newline after the opening `---`, so mark.line + 2 is one too many.
  it('reports a YAML error in front matter at the line it is on', () => {
    replaceVermont('yaml-bad-indentation.md');
    expect(problemLines()).toEqual([
      'content/states/Vermont.md:5: front matter: is not valid YAML: bad indentation of a mapping entry',
    ]);
  });
});

describe('npm run check:content', () => {
  const checkContent = (contentDir: string) =>
    spawnSync('node', ['--import', 'tsx', 'scripts/check-content.ts', '--date', BUILD_DATE], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, CONTENT_DIR: contentDir },
      encoding: 'utf8',
    });

  it('prints each problem as file:line: field: reason and exits 1', () => {
    addAds('age-17.csv');
    const { status, stdout, stderr } = checkContent(fixture.dir);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'content/ads/age-17.csv:2: age: must be 18 or over (got 17)\n\n1 content problem found.\n',
    );
    expect(stderr).not.toMatch(/ZodError|\n\s+at /);
  });

  it('names the file, line and field of a latitude of 95', () => {
    writeFixtureFile(
      fixture.dir,
      'cities/Vermont.csv',
      `${readFileSync(`${fixture.dir}/cities/Vermont.csv`, 'utf8').trimEnd()}\nNowhere,1200,95,-73.2,\n`,
    );
    const { status, stderr } = checkContent(fixture.dir);
    expect(status).toBe(1);
    expect(stderr).toMatchInlineSnapshot(`
      "content/cities/Vermont.csv:7: latitude: must be from -90 to 90 (got 95)

      1 content problem found.
      "
    `);
  });

  it('prints an unknown placeholder in site.md as one line, without a stack', () => {
    writeFixtureFile(fixture.dir, 'site.md', invalid('site-unknown-token/site.md'));
    const { status, stderr } = checkContent(fixture.dir);
    expect(status).toBe(1);
    expect(stderr).toMatchInlineSnapshot(`
      "content/site.md:13: hero.title: unknown placeholder {{brnad}}; allowed: {{brand}}

      1 content problem found.
      "
    `);
  });

  it('says Content OK and exits 0 for valid content', () => {
    const { status, stdout, stderr } = checkContent(fixture.dir);
    expect(stderr).toBe('');
    expect(stdout).toBe(
      'Content OK: 50 states, 250 cities, 8 live ads (0 not live on 2026-11-22), 11 guides.\n',
    );
    expect(status).toBe(0);
  });
});

it('passes the shipped content', () => {
  const { content, problems } = compileContent(REAL_CONTENT_DIR, BUILD_DATE);
  expect(problems.map(formatProblem)).toEqual([]);
  expect(content?.states).toHaveLength(50);
  expect(content?.activeAds).toBeGreaterThan(0);
});
