// Reads every source of ads (ad-source.ts) batch by batch into a store (ad-batch-cache.ts on disk,
// or a sink in memory), and checks what no single batch can: that every id is used once. What it
// keeps for the whole set is small and fixed per ad: ids in typed arrays (ad-ids.ts), counts per
// city, and at most MAX_PROBLEMS_PER_FILE problems a file, so a million ads, or a million broken
// rows, fit the compiler's memory as a thousand do.
import type { AdCounts, CompiledAd } from '../../core/schemas/compiled-content.ts';
import { AdIdTable } from './ad-ids.ts';
import type { AdBatch, AdSource } from './ad-source.ts';
import { summariseBatch, type BatchSummary } from './batch-summary.ts';
import type { AdCheckContext } from './check-ad-row.ts';
import type { ContentProblem } from './report.ts';

/** Problems listed for one file; the rest are counted in one more line. */
export const MAX_PROBLEMS_PER_FILE = 1000;
/**
 * The most ads one build takes: their ids (16 bytes each) and the duplicate check's table (16
 * bytes an id at most) then take 64 MB of the compiler's 160. Beyond, the build says so.
 */
export const MAX_ADS = 2_000_000;

/** Where published ads go as batches are summarised: kept on disk (ad-batch-cache.ts), or handed to a sink. */
export interface AdBatchStore {
  /** Told every batch before the first summarise(): it may check the new ones ahead, in parallel. */
  prepare?(batches: readonly AdBatch[], context: AdCheckContext): void;
  summarise(batch: AdBatch, context: AdCheckContext): BatchSummary;
  /** Published ads per state and city, once every batch is summarised and none has a problem. */
  counts(): AdCounts;
}

export interface AdsOutcome {
  problems: ContentProblem[];
  /** Published ads per state and city. */
  counts: AdCounts;
  published: number;
  /** Valid ads left out because they are not live on the build date. */
  unpublished: number;
  /** Rows of lenient sources (member ads) left out for their problems, one line a row. */
  warnings: string[];
}

/** A store that checks every batch now and hands its published ads to `publish` (nothing kept). */
export function memoryStore(publish: (ad: CompiledAd) => void): AdBatchStore {
  const counts: AdCounts = {};
  return {
    summarise: (batch, context) =>
      summariseBatch(batch, context, (ad) => {
        const stateCounts = (counts[ad.state] ??= {});
        stateCounts[ad.city] = (stateCounts[ad.city] ?? 0) + 1;
        publish(ad);
      }),
    counts: () => counts,
  };
}

export function readAds(
  sources: readonly AdSource[],
  context: AdCheckContext,
  store: AdBatchStore,
): AdsOutcome {
  const outcome: AdsOutcome = {
    problems: [],
    counts: {},
    published: 0,
    unpublished: 0,
    warnings: [],
  };
  const listed = new ProblemList();
  try {
    readBatches(sources, context, store, outcome, listed);
  } finally {
    for (const source of sources) source.close?.();
  }
  outcome.problems = listed.all();
  // The counts come from what the published ads make (the state files, on disk): only then.
  if (outcome.problems.length === 0) outcome.counts = inNameOrder(store.counts());
  return outcome;
}

function readBatches(
  sources: readonly AdSource[],
  context: AdCheckContext,
  store: AdBatchStore,
  outcome: AdsOutcome,
  listed: ProblemList,
): void {
  const batches = sources.flatMap((source) => {
    const found = source.batches();
    for (const problem of found.problems) listed.add(problem);
    return found.batches;
  });
  store.prepare?.(batches, context);

  const ids = new AdIdTable();
  const origins: string[] = [];
  const rowNames: Array<AdBatch['rowName']> = [];
  /** The origin being read: its ids from `idsFrom` on, and whether a fatal problem stopped it. */
  let origin: { name: string; index: number; idsFrom: number; stopped: boolean } | undefined;
  for (const batch of batches) {
    if (batch.origin !== origin?.name) {
      origin = { name: batch.origin, index: origins.length, idsFrom: ids.size, stopped: false };
      origins.push(batch.origin);
      rowNames.push(batch.rowName);
    }
    if (origin.stopped) continue;
    if (ids.size >= MAX_ADS) {
      listed.add({
        file: batch.origin,
        line: batch.line,
        field: 'file',
        message: `the ads from here on are beyond the ${MAX_ADS.toLocaleString('en-US')} one build can take`,
      });
      break;
    }
    const summary = store.summarise(batch, context);
    if (summary.fatal) {
      // As when csv-parse reads the whole file: its first CSV error, and nothing else of it.
      origin.stopped = true;
      listed.dropFile(batch.origin);
      ids.truncate(origin.idsFrom);
    }
    if (batch.lenient && !summary.fatal)
      outcome.warnings.push(...warningsOf(batch, summary.problems));
    else for (const problem of summary.problems) listed.add(problem);
    if (summary.fatal) continue;
    ids.addAll(summary.ids, summary.idLines, origin.index, batch.line);
    outcome.unpublished += summary.unpublished;
    outcome.published += summary.published;
  }
  const placeOf = (origin: number, line: number) =>
    rowNames[origin]?.(line) ?? `${origins[origin]}:${line}`;
  for (const duplicate of ids.duplicates()) {
    const { id, origin: at, line, firstOrigin, firstLine } = duplicate;
    // A member ad with an editor's id: the editor's row is the one that can change its id.
    if (rowNames[at] && !rowNames[firstOrigin])
      listed.add({
        file: origins[firstOrigin]!,
        line: firstLine,
        field: 'id',
        message: `duplicate id ${id}: ${placeOf(at, line)} has it too; give this ad another id`,
      });
    else
      listed.add({
        file: origins[at]!,
        line,
        field: 'id',
        message: `duplicate id ${id} (first used at ${placeOf(firstOrigin, firstLine)})`,
      });
  }
}

/** One line a row left out: `member ad 100000123 (database) is left out: city: unknown city …`. */
function warningsOf(batch: AdBatch, problems: readonly ContentProblem[]): string[] {
  const byLine = new Map<number, string[]>();
  for (const problem of problems) {
    const reasons = byLine.get(problem.line) ?? [];
    reasons.push(`${problem.field}: ${problem.message}`);
    byLine.set(problem.line, reasons);
  }
  return [...byLine].map(
    ([line, reasons]) =>
      `${batch.rowName?.(line) ?? `${batch.origin}:${line}`} is left out of the site: ${reasons.join('; ')}`,
  );
}

/** Problems by file, at most MAX_PROBLEMS_PER_FILE each, and a line saying how many more. */
class ProblemList {
  private readonly byFile = new Map<
    string,
    { listed: ContentProblem[]; more: number; firstMore: number }
  >();

  add(problem: ContentProblem): void {
    let entry = this.byFile.get(problem.file);
    if (!entry) this.byFile.set(problem.file, (entry = { listed: [], more: 0, firstMore: 0 }));
    if (entry.listed.length < MAX_PROBLEMS_PER_FILE) entry.listed.push(problem);
    else if (entry.more++ === 0) entry.firstMore = problem.line;
  }

  dropFile(file: string): void {
    this.byFile.delete(file);
  }

  all(): ContentProblem[] {
    return [...this.byFile].flatMap(([file, { listed, more, firstMore }]) =>
      more === 0
        ? listed
        : [
            ...listed,
            {
              file,
              line: firstMore,
              field: 'file',
              message: `${more} more ${more === 1 ? 'problem' : 'problems'} in this file not listed; fix the ones above and check again`,
            },
          ],
    );
  }
}

/** States and their cities in name order, however the ads were split across files. */
function inNameOrder(counts: AdCounts): AdCounts {
  const byName = <T>(entries: Array<[string, T]>) =>
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(
    byName(Object.entries(counts)).map(([state, cities]) => [
      state,
      Object.fromEntries(byName(Object.entries(cities))),
    ]),
  );
}
