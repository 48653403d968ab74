// Reads, validates and compiles everything in content/: one CompiledContent object for the site,
// and the published ads, kept batch by batch in the batch cache (the build) or handed one by one
// to a sink (checks and tests), so that the ads are never all in memory.
// Every problem in every file is collected; nothing counts as compiled while any remains.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { CITY_COLUMNS, cityRowSchema } from '../../schemas/city.ts';
import type {
  AdCounts,
  CompiledAd,
  CompiledContent,
  CompiledGuide,
  CompiledPage,
  CompiledState,
} from '../../schemas/compiled-content.ts';
import { guideFrontMatterSchema } from '../../schemas/guide.ts';
import { PAGE_SLUGS, pageFrontMatterSchema, type PageSlug } from '../../schemas/page.ts';
import { siteSchema, type SiteSettings } from '../../schemas/site.ts';
import { stateFrontMatterSchema } from '../../schemas/state.ts';
import { US_STATE_NAMES } from '../../schemas/us-states.ts';
import { cityPath } from '../../paths.ts';
import { readPolicyTerms } from '../../policy/term-files.ts';
import type { AdCheckContext } from './check-ad-row.ts';
import { NO_MEMO, type CompileMemo } from './compile-memo.ts';
import type { AdSource } from './ad-source.ts';
import { csvAdSource, type CsvScanCache } from './csv-ad-source.ts';
import { memoryStore, readAds, type AdBatchStore } from './read-ads.ts';
import { readCsv } from './read-csv.ts';
import { readMarkdown, renderMarkdown, type MarkdownFile } from './read-markdown.ts';
import { problemsFromZod, sortProblems, type ContentProblem } from './report.ts';
import { fillTokens, fillTokensIn, findUnknownToken, findUnknownTokensIn } from './tokens.ts';

/** Receives each published ad as it is validated, when no batch cache keeps them (tests, checks). */
export interface AdSink {
  add(ad: CompiledAd): void;
}

/** Keeps every published ad in memory: for tests and small content sets. */
export function collectAds(): AdSink & { ads: CompiledAd[] } {
  const ads: CompiledAd[] = [];
  return { ads, add: (ad) => ads.push(ad) };
}

const ignoreAds: AdSink = { add: () => {} };

export interface CompileResult {
  /** Present only when there are no problems. */
  content?: CompiledContent;
  problems: ContentProblem[];
  /** Valid ads left out because they are not live on the build date. */
  unpublishedAds: number;
  /** Member ads left out for a problem of their own (they never stop the build), one line each. */
  warnings?: string[];
}

/** What the compiler may reuse from earlier builds; without these, everything is computed. */
export interface CompileCaches {
  /** Checked batches of ads, and their published ads (then not handed to the sink). */
  adBatches?: AdBatchStore;
  /** Each ads file's segments, by the file's stat: an unchanged file is not read. */
  adScans?: CsvScanCache;
  memo?: CompileMemo;
}

/** Where ads come from besides content/ads/: member ads from the database (database-ad-source.ts). */
export interface MoreAdSources {
  adSources?: readonly AdSource[];
  /** Editors' ads that reports keep off the site (hiddenEditorAdIds() of database-ad-source.ts). */
  hiddenAdIds?: readonly number[];
}

export function compileContent(
  contentDir: string,
  buildDate: string,
  sink: AdSink = ignoreAds,
  caches: CompileCaches & MoreAdSources = {},
): CompileResult {
  const memo = caches.memo ?? NO_MEMO;
  const markdownToHtml = (markdown: string) => {
    let html = memo.get<string>('markdown', markdown);
    if (html === undefined) memo.set('markdown', markdown, (html = renderMarkdown(markdown)));
    return html;
  };
  const problems: ContentProblem[] = [];
  const rel = (path: string) => relative(join(contentDir, '..'), path).split('\\').join('/');
  const listFiles = (folder: string, extension: string) => {
    const dir = join(contentDir, folder);
    if (!existsSync(dir)) {
      problems.push({ file: rel(dir), line: 1, field: 'file', message: 'folder is missing' });
      return [];
    }
    return readdirSync(dir)
      .filter((name) => name.endsWith(extension))
      .sort()
      .map((name) => join(dir, name));
  };

  // Site settings
  const sitePath = join(contentDir, 'site.md');
  let site: SiteSettings | undefined;
  if (!existsSync(sitePath)) {
    problems.push({ file: rel(sitePath), line: 1, field: 'file', message: 'is missing' });
  } else {
    const { markdown, problems: readProblems } = readMarkdown(
      readFileSync(sitePath, 'utf8'),
      rel(sitePath),
    );
    problems.push(...readProblems);
    if (markdown) {
      problems.push(...frontMatterTokenProblems(markdown, rel(sitePath)));
      const parsed = siteSchema.safeParse(markdown.data);
      if (parsed.success) site = parsed.data;
      else problems.push(...problemsFromZod(parsed.error, rel(sitePath), markdown.lineOf));
    }
  }
  const brand = site?.brand ?? 'Localboard';
  const tokens = { brand };

  // States and their cities
  const states: CompiledState[] = [];
  const stateFiles = listFiles('states', '.md');
  const cityFiles = listFiles('cities', '.csv');
  const cityFileStems = new Set(cityFiles.map((path) => basename(path, '.csv')));
  const stateFileStems = new Set(stateFiles.map((path) => basename(path, '.md')));
  for (const path of cityFiles) {
    const stem = basename(path, '.csv');
    if (!stateFileStems.has(stem)) {
      problems.push({
        file: rel(path),
        line: 1,
        field: 'file',
        message: `has no state file; add content/states/${stem}.md or remove this CSV`,
      });
    }
  }
  for (const name of US_STATE_NAMES) {
    if (!stateFileStems.has(name)) {
      problems.push({
        file: `content/states/${name}.md`,
        line: 1,
        field: 'file',
        message: 'is missing; every one of the 50 states needs a state file',
      });
    }
  }
  for (const path of stateFiles) {
    const file = rel(path);
    const stem = basename(path, '.md');
    const { markdown, problems: readProblems } = readMarkdown(readFileSync(path, 'utf8'), file);
    problems.push(...readProblems);
    if (!markdown) continue;
    const parsed = stateFrontMatterSchema.safeParse(markdown.data);
    if (!parsed.success) {
      problems.push(...problemsFromZod(parsed.error, file, markdown.lineOf));
      continue;
    }
    if (parsed.data.name !== stem) {
      problems.push({
        file,
        line: markdown.lineOf('name'),
        field: 'name',
        message: `must match the file name ('${stem}'; got '${parsed.data.name}')`,
      });
      continue;
    }
    problems.push(...tokenProblems(markdown.body, file, markdown.bodyLine, []));
    if (markdown.body.trim() === '') {
      problems.push({
        file,
        line: markdown.bodyLine,
        field: 'body',
        message: "is empty; write the state's guide below the front matter",
      });
    }
    if (!cityFileStems.has(stem)) {
      problems.push({
        file,
        line: 1,
        field: 'file',
        message: `has no city list; add content/cities/${stem}.csv`,
      });
      continue;
    }
    const cityFile = join(contentDir, 'cities', `${stem}.csv`);
    const cityText = readFileSync(cityFile, 'utf8');
    let cities = memo.get<CompiledState['cities']>('cities', `${cityFile}\0${cityText}`);
    if (!cities) {
      const cityProblems: ContentProblem[] = [];
      cities = readCities(cityText, rel(cityFile), cityProblems);
      problems.push(...cityProblems);
      if (cityProblems.length === 0) memo.set('cities', `${cityFile}\0${cityText}`, cities);
    }
    states.push({
      ...parsed.data,
      guideHtml: markdownToHtml(fillTokens(markdown.body, tokens)),
      cities,
    });
  }
  states.sort((a, b) => a.name.localeCompare(b.name, 'en'));
  const citiesByState = new Map(
    states.map((state) => [state.name, new Set(state.cities.map((city) => city.name))]),
  );

  if (site) {
    for (const [index, popular] of site.popularCities.entries()) {
      if (!citiesByState.get(popular.state)?.has(popular.city)) {
        problems.push({
          file: 'content/site.md',
          line: 1,
          field: `popularCities.${index}`,
          message: `no city '${popular.city}' in state '${popular.state}'`,
        });
      }
    }
  }

  // Ads
  const { terms: policyTerms, missing: missingTermFiles } = readPolicyTerms(contentDir);
  for (const file of missingTermFiles) {
    problems.push({
      file: rel(join(contentDir, file)),
      line: 1,
      field: 'file',
      message: 'is missing; the ad checks need it',
    });
  }
  const context: AdCheckContext = {
    buildDate,
    citiesByState,
    policyTerms,
    ...(caches.hiddenAdIds?.length ? { hiddenAdIds: new Set(caches.hiddenAdIds) } : {}),
  };
  const adsFiles = listFiles('ads', '.csv').map((path) => ({ file: rel(path), path }));
  const ads = readAds(
    [csvAdSource(adsFiles, caches.adScans), ...(caches.adSources ?? [])],
    context,
    caches.adBatches ?? memoryStore((ad) => sink.add(ad)),
  );
  problems.push(...ads.problems);
  const { counts: adCounts, published: activeAds, unpublished: unpublishedAds, warnings } = ads;

  // Guides and pages
  const topCitiesMarkdown = topCitiesList(adCounts, states);
  const guides: CompiledGuide[] = [];
  const orders = new Map<number, string>();
  for (const path of listFiles('guides', '.md')) {
    const file = rel(path);
    const { markdown, problems: readProblems } = readMarkdown(readFileSync(path, 'utf8'), file);
    problems.push(...readProblems);
    if (!markdown) continue;
    const parsed = guideFrontMatterSchema.safeParse(markdown.data);
    if (!parsed.success) {
      problems.push(...problemsFromZod(parsed.error, file, markdown.lineOf));
      continue;
    }
    const guide = parsed.data;
    if (guide.slug !== basename(path, '.md')) {
      problems.push({
        file,
        line: markdown.lineOf('slug'),
        field: 'slug',
        message: `must match the file name ('${basename(path, '.md')}')`,
      });
    }
    const sameOrder = orders.get(guide.order);
    if (sameOrder)
      problems.push({
        file,
        line: markdown.lineOf('order'),
        field: 'order',
        message: `${guide.order} is already used by ${sameOrder}`,
      });
    orders.set(guide.order, file);
    problems.push(...frontMatterTokenProblems(markdown, file));
    problems.push(...tokenProblems(markdown.body, file, markdown.bodyLine, ['topCities']));
    const body = fillTokens(markdown.body, { ...tokens, topCities: topCitiesMarkdown });
    guides.push({
      ...guide,
      title: fillTokens(guide.title, tokens),
      summary: fillTokens(guide.summary, tokens),
      html: markdownToHtml(body),
    });
  }
  guides.sort((a, b) => a.order - b.order);

  const pages: Partial<Record<PageSlug, CompiledPage>> = {};
  for (const slug of PAGE_SLUGS) {
    const path = join(contentDir, 'pages', `${slug}.md`);
    const file = rel(path);
    if (!existsSync(path)) {
      problems.push({ file, line: 1, field: 'file', message: 'is missing' });
      continue;
    }
    const { markdown, problems: readProblems } = readMarkdown(readFileSync(path, 'utf8'), file);
    problems.push(...readProblems);
    if (!markdown) continue;
    const parsed = pageFrontMatterSchema.safeParse(markdown.data);
    if (!parsed.success) {
      problems.push(...problemsFromZod(parsed.error, file, markdown.lineOf));
      continue;
    }
    if (slug !== 'about' && !parsed.data.lastUpdated) {
      problems.push({
        file,
        line: 1,
        field: 'lastUpdated',
        message: 'is required on terms and privacy (YYYY-MM-DD)',
      });
    }
    problems.push(...frontMatterTokenProblems(markdown, file));
    problems.push(...tokenProblems(markdown.body, file, markdown.bodyLine, []));
    pages[slug] = {
      ...parsed.data,
      title: fillTokens(parsed.data.title, tokens),
      description: fillTokens(parsed.data.description, tokens),
      html: markdownToHtml(fillTokens(markdown.body, tokens)),
    };
  }

  if (problems.length > 0 || !site)
    return { problems: sortProblems(problems), unpublishedAds, warnings };
  return {
    content: {
      buildDate,
      site: fillTokensIn(site, tokens),
      states,
      guides,
      pages: pages as Record<PageSlug, CompiledPage>,
      adCounts,
      activeAds,
      policyTerms,
    },
    problems: [],
    unpublishedAds,
    warnings,
  };

  function readCities(text: string, file: string, sink: ContentProblem[]) {
    const { rows, problems: csvProblems } = readCsv(text, file, {
      required: CITY_COLUMNS,
      optional: ['geonamesId'],
    });
    sink.push(...csvProblems);
    const seen = new Map<string, number>();
    const cities: CompiledState['cities'] = [];
    for (const row of rows) {
      const parsed = cityRowSchema.safeParse(row.cells);
      if (!parsed.success) {
        sink.push(...problemsFromZod(parsed.error, file, () => row.line));
        continue;
      }
      const earlier = seen.get(parsed.data.name);
      if (earlier) {
        sink.push({
          file,
          line: row.line,
          field: 'name',
          message: `'${parsed.data.name}' is already listed on line ${earlier}; city names are unique within a state`,
        });
        continue;
      }
      seen.set(parsed.data.name, row.line);
      cities.push({ name: parsed.data.name, population: parsed.data.population });
    }
    return cities.sort((a, b) => b.population - a.population || a.name.localeCompare(b.name, 'en'));
  }
}

function tokenProblems(
  body: string,
  file: string,
  bodyLine: number,
  extra: string[],
): ContentProblem[] {
  const unknown = findUnknownToken(body, ['brand', ...extra]);
  if (!unknown) return [];
  return [
    {
      file,
      line: bodyLine + unknown.lineIndex,
      field: 'body',
      message: `unknown placeholder {{${unknown.token}}}; allowed: ${['brand', ...extra].map((t) => `{{${t}}}`).join(', ')}`,
    },
  ];
}

/** Unknown placeholders in front matter, where {{brand}} alone is filled in. */
function frontMatterTokenProblems(markdown: MarkdownFile, file: string): ContentProblem[] {
  return findUnknownTokensIn(markdown.data, ['brand']).map(({ path, token }) => ({
    file,
    line: markdown.lineMatching(new RegExp(`\\{\\{\\s*${token}\\s*\\}\\}`)),
    field: path,
    message: `unknown placeholder {{${token}}}; allowed: {{brand}}`,
  }));
}

/** The ten cities with the most published ads, as a Markdown list (the top-cities guide). */
function topCitiesList(adCounts: AdCounts, states: readonly CompiledState[]): string {
  type Entry = { state: string; city: string; ads: number; population: number; key: string };
  const before = (a: Entry, b: Entry) =>
    b.ads - a.ads || b.population - a.population || a.key.localeCompare(b.key, 'en');
  // One pass keeping the best ten, in order: there may be tens of thousands of cities.
  const top: Entry[] = [];
  for (const state of states) {
    const counts = adCounts[state.name];
    if (!counts) continue;
    for (const city of state.cities) {
      const ads = counts[city.name];
      if (!ads) continue;
      const entry = {
        state: state.name,
        city: city.name,
        ads,
        population: city.population,
        key: `${state.name}\u0000${city.name}`,
      };
      if (top.length === 10 && before(entry, top[9]!) >= 0) continue;
      let at = top.length;
      while (at > 0 && before(entry, top[at - 1]!) < 0) at -= 1;
      top.splice(at, 0, entry);
      if (top.length > 10) top.pop();
    }
  }
  if (top.length === 0) return '_No city has active ads yet._';
  return top
    .map(
      (entry, index) =>
        `${index + 1}. [${entry.city}, ${entry.state}](${cityPath(entry.state, entry.city)}): ${entry.ads} active ${entry.ads === 1 ? 'ad' : 'ads'}`,
    )
    .join('\n');
}
