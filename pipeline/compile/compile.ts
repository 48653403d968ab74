// Reads, validates and compiles everything in content/: one CompiledContent object for the site,
// and the published ads, kept batch by batch in the batch cache (the build) or handed one by one
// to a sink (checks and tests), so that the ads are never all in memory.
// Every problem in every file is collected; nothing counts as compiled while any remains.
// Here the site settings and the order of the steps; the states and cities, the guides and the
// pages are compiled by their own modules (compile-states.ts, compile-guides.ts, compile-pages.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  CompiledAd,
  CompiledContent,
  CompiledPage,
} from '../../core/schemas/compiled-content.ts';
import type { PageSlug } from '../../core/schemas/page.ts';
import { siteSchema, type SiteSettings } from '../../core/schemas/site.ts';
import {
  readPolicyTerms,
  readScamSignals,
  SCAM_SIGNALS_FILE,
} from '../../core/policy/term-files.ts';
import type { AdCheckContext } from './check-ad-row.ts';
import { NO_MEMO, type CompileMemo } from './compile-memo.ts';
import { compileGuides } from './compile-guides.ts';
import { compilePages } from './compile-pages.ts';
import { compileStates } from './compile-states.ts';
import { checkAgeIssuers } from './compile-age-issuers.ts';
import { contentReader, type ContentReader } from './content-reader.ts';
import type { AdSource } from './ad-source.ts';
import { csvAdSource, type CsvScanCache } from './csv-ad-source.ts';
import { memoryStore, readAds, type AdBatchStore } from './read-ads.ts';
import { readMarkdown } from './read-markdown.ts';
import { problemsFromZod, sortProblems, type ContentProblem } from './report.ts';
import { fillTokensIn, frontMatterTokenProblems } from './tokens.ts';

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
  /**
   * Member ads left out for a problem of their own, and roots of the age check's trust list out
   * of date (neither stops the build), one line each.
   */
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
  const reader = contentReader(contentDir, caches.memo ?? NO_MEMO);
  const { problems, rel, listFiles } = reader;
  const site = compileSite(reader);
  const brand = site?.brand ?? 'Localboard';
  const tokens = { brand };

  const states = compileStates(reader, tokens);
  const trustListWarnings = checkAgeIssuers(reader, buildDate);
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
  const { signals: scamSignals, problems: signalProblems } = readScamSignals(contentDir);
  for (const problem of signalProblems)
    problems.push({ file: rel(join(contentDir, SCAM_SIGNALS_FILE)), ...problem });
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
  const { counts: adCounts, published: activeAds, unpublished: unpublishedAds } = ads;
  const warnings = [...(ads.warnings ?? []), ...trustListWarnings];

  // Guides and pages
  const guides = compileGuides(reader, tokens, adCounts, states);
  const pages = compilePages(reader, tokens);

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
      scamSignals,
    },
    problems: [],
    unpublishedAds,
    warnings,
  };
}

/**
 * content/site.md's settings read alone, for an instance that has no compiled content yet and
 * never compiles it (SITE_BUCKET: it waits for the publisher's release), or its problems.
 */
export function readSiteSettings(
  contentDir: string,
): { site: SiteSettings } | { problems: ContentProblem[] } {
  const reader = contentReader(contentDir, NO_MEMO);
  const site = compileSite(reader);
  return site ? { site } : { problems: reader.problems };
}

/** content/site.md's settings; undefined when the file is missing or has problems. */
function compileSite({ contentDir, problems, rel }: ContentReader): SiteSettings | undefined {
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
  return site;
}
