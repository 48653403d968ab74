// Keeps what each batch of ads (ad-source.ts) checked to between builds, keyed by its rows and
// everything their checks depend on (build date, city lists, policy terms, the compiler's code):
// a batch seen before is not read or checked again, so after one ad changes only its batch of
// about a thousand rows is. For each batch, in .content/batches/:
// - {key}.json: its summary (batch-summary.ts) and where each state's run is in {key}.ads;
// - {key}.ads: its published ads, state by state, each state's sorted by list order and written
//   `{listKey}<TAB>{json}` (list-key.ts; state-ad-files.ts merges the runs into the state files);
// - {key}.ids: its ids and their lines, as numbers (the duplicate-id check reads them every build).
// Batches with a CSV syntax error are not kept: the error names lines of the whole file.
import { createHash, hash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BufferedFileWriter } from '../buffered-file-writer.ts';
import { replaceFile } from '../replace-file.ts';
import type { AdCounts, CompiledAd } from '../../core/schemas/compiled-content.ts';
import { US_STATE_NAMES } from '../../core/schemas/us-states.ts';
import type { AdBatch } from './ad-source.ts';
import { summariseBatch, type BatchSummary } from './batch-summary.ts';
import type { AdCheckContext } from './check-ad-row.ts';
import { checkAdsInParallel, type AdBatchJob } from './check-ads-in-parallel.ts';
import { checkCsvSegment } from './check-csv-segment.ts';
import { buildStepUrl, STEPS_DIR_VARIABLE } from '../build-steps.ts';
import { compileCodeFingerprint } from './code-fingerprint.ts';
import type { AdBatchStore } from './read-ads.ts';
import { listKey } from './list-key.ts';
import type { StateRun } from './merge-runs.ts';
import { mergeStateAdFiles, type StateAdFiles, type StateRuns } from './state-ad-files.ts';

/** A batch's summary as kept: problems as [relative line, field, message]; each state's run. */
interface StoredSummary {
  unpublished: number;
  published: number;
  problems: Array<[line: number, field: string, message: string]>;
  runs: Runs;
}

/** State → where its run is in the batch's .ads file, and a digest of the run. */
type Runs = Record<string, [offset: number, bytes: number, digest: string]>;

/** The parallel check's worker, where the build runs bundled; elsewhere batches are checked here. */
const parallelWorker = process.env[STEPS_DIR_VARIABLE]
  ? buildStepUrl('ad-check-worker')
  : undefined;

/** A CSV batch from its job (in the worker thread, or when the worker leaves a job undone). */
export const batchOfJob = (job: AdBatchJob): Pick<AdBatch, 'check' | 'line'> => ({
  line: job.line,
  check: (context, visit) => checkCsvSegment(job.segment, context, visit),
});

/** Everything an ad's check depends on besides its row, as a key. */
export function contextKey(context: AdCheckContext): string {
  const cities = [...context.citiesByState]
    .map(([state, names]) => `${state}:${[...names].join('|')}`)
    .join('\n');
  return hash(
    'sha1',
    [
      context.buildDate,
      context.policyTerms.refuse.join('\n'),
      context.policyTerms.review.join('\n'),
      cities,
      [...(context.hiddenAdIds ?? [])].sort((a, b) => a - b).join(','),
      compileCodeFingerprint(),
    ].join('\0'),
    'base64url',
  );
}

export function adBatchCache(compiledDir: string): AdBatchStore & {
  /** Checks a batch's rows and keeps the outcome under `key` (both threads of the parallel check). */
  checkAndKeep(key: string, batch: Pick<AdBatch, 'check' | 'line'>, context: AdCheckContext): void;
  /** The state files that counts() merged (not yet in place), if it was called. */
  stateFiles(): StateAdFiles | undefined;
  /** Removes what no batch of this build used, and the last format's folders. */
  prune(): void;
} {
  const dir = join(compiledDir, 'batches');
  mkdirSync(dir, { recursive: true });
  const contextKeys = new WeakMap<AdCheckContext, string>();
  const keyOf = (batch: AdBatch, context: AdCheckContext) => {
    let checks = contextKeys.get(context);
    if (!checks) contextKeys.set(context, (checks = contextKey(context)));
    return hash('sha1', `${checks}\0${batch.key}`, 'base64url');
  };
  const path = (key: string, extension: string) => join(dir, `${key}.${extension}`);
  // Kept for every batch of the build, so kept small: the batches' keys, and each state's runs in
  // typed arrays (5,000 files of ads make 250,000 runs).
  const usedKeys: string[] = [];
  const runsByState = new Map<string, RunTable>();
  let stateFiles: StateAdFiles | undefined;

  /** Checks and keeps a batch; the summary, whether it was kept or not (a fatal one is not). */
  const checkAndKeep = (
    key: string,
    batch: Pick<AdBatch, 'check' | 'line'>,
    context: AdCheckContext,
  ): { summary: BatchSummary; runs: Runs } => {
    const byState = new Map<string, Array<{ key: string; json: string }>>();
    const summary = summariseBatch(batch, context, (ad: CompiledAd) => {
      const line = { key: listKey(ad), json: JSON.stringify(ad) };
      const lines = byState.get(ad.state);
      if (lines) lines.push(line);
      else byState.set(ad.state, [line]);
    });
    const runs: Runs = {};
    if (summary.fatal) return { summary, runs };
    const ads = new BufferedFileWriter(path(key, 'ads'));
    let offset = 0;
    for (const [state, lines] of byState) {
      lines.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      // One string a run: hashed and measured at once (a call a line costs more than the work).
      const run = lines.map((line) => `${line.key}\t${line.json}\n`).join('');
      const bytes = Buffer.byteLength(run);
      ads.write(run);
      runs[state] = [offset, bytes, hash('sha1', run, 'base64url')];
      offset += bytes;
    }
    ads.close();
    const ids = Buffer.allocUnsafe(summary.ids.length * 12);
    Buffer.from(summary.ids.buffer, summary.ids.byteOffset, summary.ids.byteLength).copy(ids, 0);
    Buffer.from(
      summary.idLines.buffer,
      summary.idLines.byteOffset,
      summary.idLines.byteLength,
    ).copy(ids, summary.ids.byteLength);
    writeFileSync(path(key, 'ids'), ids);
    const stored: StoredSummary = {
      unpublished: summary.unpublished,
      published: summary.published,
      problems: summary.problems.map((problem) => [
        problem.line - batch.line,
        problem.field,
        problem.message,
      ]),
      runs,
    };
    // Written last, and whole (replaceFile): a batch is kept once its summary is there.
    replaceFile(path(key, 'json'), JSON.stringify(stored));
    return { summary, runs };
  };

  const read = (key: string, batch: AdBatch): { summary: BatchSummary; runs: Runs } | undefined => {
    let stored: StoredSummary;
    let ids: Buffer;
    try {
      stored = JSON.parse(readFileSync(path(key, 'json'), 'utf8')) as StoredSummary;
      ids = readFileSync(path(key, 'ids'));
    } catch {
      return undefined;
    }
    const count = ids.length / 12;
    const idValues = new Float64Array(count);
    const idLines = new Uint32Array(count);
    ids.copy(Buffer.from(idValues.buffer), 0, 0, count * 8);
    ids.copy(Buffer.from(idLines.buffer), 0, count * 8);
    return {
      summary: {
        unpublished: stored.unpublished,
        problems: stored.problems.map(([line, field, message]) => ({
          file: batch.origin,
          line: batch.line + line,
          field,
          message,
        })),
        fatal: false,
        published: stored.published,
        ids: idValues,
        idLines,
      },
      runs: stored.runs,
    };
  };

  return {
    prepare(batches, context) {
      // Each new batch once (two files may hold the same rows), biggest first.
      const jobs = new Map<string, AdBatchJob>();
      for (const batch of batches) {
        const key = keyOf(batch, context);
        if (batch.job && !jobs.has(key) && !existsSync(path(key, 'json')))
          jobs.set(key, { key, line: batch.line, segment: batch.job });
      }
      checkAdsInParallel(
        compiledDir,
        [...jobs.values()].sort((a, b) => b.segment.bytes - a.segment.bytes),
        context,
        (job) => checkAndKeep(job.key, batchOfJob(job), context),
        parallelWorker,
      );
    },
    summarise(batch, context) {
      const key = keyOf(batch, context);
      const outcome = read(key, batch) ?? checkAndKeep(key, batch, context);
      if (!outcome.summary.fatal) {
        for (const [state, [offset, bytes, digest]] of Object.entries(outcome.runs)) {
          let table = runsByState.get(state);
          if (!table) runsByState.set(state, (table = new RunTable()));
          table.add(usedKeys.length, offset, bytes, digest);
        }
        usedKeys.push(key);
      }
      return outcome.summary;
    },
    checkAndKeep(key, batch, context) {
      checkAndKeep(key, batch, context);
    },
    counts() {
      const states = [...runsByState].map(([state, table]): StateRuns => ({
        state,
        pieces: table.pieces(),
        runs: () => table.runs((index) => path(usedKeys[index]!, 'ads')),
      }));
      stateFiles = mergeStateAdFiles(compiledDir, states, US_STATE_NAMES);
      const counts: AdCounts = {};
      for (const [state, { cities }] of Object.entries(stateFiles.index))
        counts[state] = Object.fromEntries(
          Object.entries(cities).map(([city, entry]) => [city, entry.ads]),
        );
      return counts;
    },
    stateFiles: () => stateFiles,
    prune() {
      const kept = new Set(usedKeys);
      for (const name of readdirSync(dir))
        if (!kept.has(name.slice(0, name.indexOf('.')))) rmSync(join(dir, name), { force: true });
      // What the compiler kept before batches: per-file pieces and row outcomes.
      for (const old of ['pieces', 'rows'])
        rmSync(join(compiledDir, old), { recursive: true, force: true });
    },
  };
}

/** One state's runs: the batch (its index), offset and bytes of each; their digests, hashed. */
class RunTable {
  private batches = new Uint32Array(64);
  private offsets = new Float64Array(64);
  private bytes = new Float64Array(64);
  private count = 0;
  private readonly digests = createHash('sha1');
  private digest: string | undefined;

  add(batch: number, offset: number, bytes: number, digest: string): void {
    if (this.count === this.batches.length) {
      const grow = <T extends Uint32Array | Float64Array>(array: T, bigger: T) => {
        bigger.set(array);
        return bigger;
      };
      this.batches = grow(this.batches, new Uint32Array(this.count * 2));
      this.offsets = grow(this.offsets, new Float64Array(this.count * 2));
      this.bytes = grow(this.bytes, new Float64Array(this.count * 2));
    }
    this.batches[this.count] = batch;
    this.offsets[this.count] = offset;
    this.bytes[this.count] = bytes;
    this.count += 1;
    this.digests.update(`${digest},`);
  }

  /** Equal when the state's runs hold the same ads in the same order (once all are added). */
  pieces(): string {
    this.digest ??= this.digests.digest('base64url');
    return this.digest;
  }

  runs(fileOf: (batch: number) => string): StateRun[] {
    return Array.from({ length: this.count }, (_, index) => ({
      file: fileOf(this.batches[index]!),
      offset: this.offsets[index]!,
      bytes: this.bytes[index]!,
    }));
  }
}
