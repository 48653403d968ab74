// Keeps what each ads CSV compiled to between builds, so that an unchanged file is not parsed again
// and a changed one only in the rows that changed.
// - Per file version, keyed by its text and everything its checks depend on (build date, city
//   lists, blocked terms, the compiler's code): its summary, and its published ads in per-state
//   pieces that the compiler puts together into the state files (state-ad-files.ts).
// - Per file, the outcome of each valid row, keyed by the row's raw text: when the file changes,
//   rows seen before are not parsed or checked again (csv-records.ts finds the rows).
import { hash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { buildStepUrl, STEPS_DIR_VARIABLE } from '../build-steps.ts';
import { BufferedFileWriter } from '../buffered-file-writer.ts';
import { AD_COLUMNS } from '../../schemas/ad.ts';
import type { CompiledAd } from '../../schemas/compiled-content.ts';
import type { AdFileCache } from './compile.ts';
import {
  addToSummary,
  checkAdFile,
  checkAdRow,
  emptySummary,
  type AdFileContext,
  type AdFileSummary,
} from './check-ad-file.ts';
import { checkAdsInParallel } from './check-ads-in-parallel.ts';
import { compileCodeFingerprint } from './code-fingerprint.ts';
import { splitCsvRecords } from './csv-records.ts';
import { writePiece, type PieceLine } from './state-ad-files.ts';
import { readCsv } from './read-csv.ts';

export interface CachedAdFile {
  file: string;
  key: string;
  /** States with published ads in this file. */
  states: string[];
}

const sha1 = (...parts: string[]) => hash('sha1', parts.join('\0'), 'hex');

/** A valid row's outcome as kept: `published (1/0)<TAB>the ad's JSON`. */
type RowEntry = string;

/** Rows parsed and checked at a time. */
const ROWS_PER_BATCH = 1_000;

/** The parallel check's worker, where the build runs bundled; elsewhere files are checked one by one. */
const parallelWorker = process.env[STEPS_DIR_VARIABLE]
  ? buildStepUrl('ad-check-worker')
  : undefined;

export function adFileCache(compiledDir: string): AdFileCache & {
  files: CachedAdFile[];
  piecePath(key: string, state: string): string;
  prune(): void;
} {
  const piecesDir = join(compiledDir, 'pieces');
  const rowsDir = join(compiledDir, 'rows');
  mkdirSync(piecesDir, { recursive: true });
  mkdirSync(rowsDir, { recursive: true });
  const files: CachedAdFile[] = [];
  const contextKeys = new WeakMap<AdFileContext, string>();
  const contextKey = (context: AdFileContext) => {
    let key = contextKeys.get(context);
    if (!key) {
      const cities = [...context.citiesByState]
        .map(([state, names]) => `${state}:${[...names].join('|')}`)
        .join('\n');
      key = sha1(
        context.buildDate,
        context.blockedTerms.join('\n'),
        cities,
        compileCodeFingerprint(),
      );
      contextKeys.set(context, key);
    }
    return key;
  };
  const piecePath = (key: string, state: string) => join(piecesDir, key, `${state}.ndjson`);
  const rowsPath = (file: string) => join(rowsDir, `${sha1(file)}.tsv`);
  // Which version (key) of a file was last summarised, by its stat: `stamp<LF>key`, one small file
  // per ads file, so that the worker threads of the parallel check and this one share it.
  const versionPath = (file: string) => join(rowsDir, `${sha1(file)}.version`);
  const stampNow = (path: string, context: AdFileContext) =>
    `${contextKey(context)}:${stampOf(path)}`;
  const lastVersion = (file: string): { stamp: string; key: string } | undefined => {
    const [stamp, key] = readIfExists(versionPath(file))?.split('\n') ?? [];
    return stamp && key ? { stamp, key } : undefined;
  };

  /** A file's summary, from the cache or checked now (and then kept); `key` says which version of the file it is. */
  const summariseFile = (file: string, path: string, context: AdFileContext) => {
    // A file whose size, inode and modification time are those it had last time is not read.
    const stamp = stampNow(path, context);
    const last = lastVersion(file);
    const unchanged =
      last?.stamp === stamp && existsSync(join(piecesDir, last.key, 'summary.json'));
    const text = unchanged ? '' : readFileSync(path, 'utf8');
    const key = unchanged ? last.key : sha1(contextKey(context), file, text);
    if (!unchanged) writeFileSync(versionPath(file), `${stamp}\n${key}`);
    const summaryFile = join(piecesDir, key, 'summary.json');
    if (existsSync(summaryFile))
      return { summary: JSON.parse(readFileSync(summaryFile, 'utf8')) as AdFileSummary, key };
    const pieces = new Map<string, PieceLine[]>();
    const publish = (ad: CompiledAd, json = JSON.stringify(ad)) => {
      // Only what orders the list is kept beside the JSON, not the whole ad.
      const line = {
        json,
        city: ad.city,
        order: { featured: ad.featured, postedAt: ad.postedAt, id: ad.id },
      };
      const list = pieces.get(ad.state);
      if (list) list.push(line);
      else pieces.set(ad.state, [line]);
    };
    let summary = checkChangedRows(
      file,
      text,
      context,
      rowsPath(file),
      contextKey(context),
      publish,
    );
    if (!summary) {
      // Not simple enough to take apart row by row: checked whole, as the content check does, for exact messages.
      pieces.clear();
      summary = checkAdFile(text, file, context, (ad) => publish(ad));
    }
    mkdirSync(join(piecesDir, key), { recursive: true });
    for (const [state, lines] of pieces) writePiece(piecePath(key, state), lines);
    writeFileSync(summaryFile, JSON.stringify(summary));
    return { summary, key };
  };

  return {
    files,
    piecePath,
    prepare(entries, context) {
      const changed = entries.filter(
        ({ file, path }) => lastVersion(file)?.stamp !== stampNow(path, context),
      );
      checkAdsInParallel(
        compiledDir,
        changed,
        context,
        (entry) => summariseFile(entry.file, entry.path, context),
        parallelWorker,
      );
    },
    summarise(file: string, path: string, context: AdFileContext): AdFileSummary {
      const { summary, key } = summariseFile(file, path, context);
      files.push({ file, key, states: Object.keys(summary.counts) });
      return summary;
    },
    /** Removes the pieces and row outcomes of files that are gone or changed. */
    prune() {
      const used = new Set(files.map((entry) => entry.key));
      for (const name of readdirSync(piecesDir))
        if (!used.has(name)) rmSync(join(piecesDir, name), { recursive: true, force: true });
      const kept = new Set(
        files.flatMap((entry) => [rowsPath(entry.file), versionPath(entry.file)]),
      );
      for (const name of readdirSync(rowsDir))
        if (!kept.has(join(rowsDir, name))) rmSync(join(rowsDir, name), { force: true });
    },
  };
}

const readIfExists = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

/** Size, inode and modification time: a file with the same stamp as last time is taken as unchanged. */
function stampOf(path: string): string {
  const stats = statSync(path);
  return `${stats.size}:${stats.ino}:${stats.mtimeMs}`;
}

/**
 * Checks a file's rows, reusing the outcome of every row seen unchanged in the file's last
 * version; keeps the outcomes for the next build. Undefined when the file is not simple enough to
 * take apart row by row (then it is checked whole, as the content check does, for exact messages).
 */
function checkChangedRows(
  file: string,
  text: string,
  context: AdFileContext,
  rowsFile: string,
  contextKey: string,
  publish: (ad: CompiledAd, json: string) => void,
): AdFileSummary | undefined {
  const records = splitCsvRecords(text);
  const header = records?.[0];
  if (!records || !header) return undefined;
  const known = readRowEntries(rowsFile, `${contextKey}\t${header.text}`);
  const summary = emptySummary();
  // The outcomes kept for the next build go to a new file, which replaces the old one at the end.
  const kept = new BufferedFileWriter(`${rowsFile}.next`);
  kept.write(`${contextKey}\t${header.text}\n`);
  // A batch of rows at a time, so that a big file's parsed rows are never all in memory at once.
  for (let start = 1; start < records.length; start += ROWS_PER_BATCH) {
    const rows = records
      .slice(start, start + ROWS_PER_BATCH)
      .map((record) => ({ ...record, key: sha1(record.text) }));
    const fresh = rows.filter((row) => !known.has(row.key));
    const parsed =
      fresh.length > 0
        ? readCsv([header, ...fresh].map((record) => record.text).join('\n'), file, {
            required: AD_COLUMNS,
          })
        : undefined;
    if (parsed && (parsed.problems.length > 0 || parsed.rows.length !== fresh.length)) {
      kept.close();
      rmSync(`${rowsFile}.next`);
      return undefined;
    }
    let freshIndex = 0;
    for (const row of rows) {
      const entry = known.get(row.key);
      if (entry !== undefined) {
        const [published, json] = splitEntry(entry);
        addToSummary(
          summary,
          { problems: [], ad: JSON.parse(json) as CompiledAd, published },
          row.line,
          (ad) => publish(ad, json),
        );
        kept.write(`${row.key}\t${entry}\n`);
        continue;
      }
      const outcome = checkAdRow(parsed!.rows[freshIndex++]!.cells, row.line, file, context);
      const json = outcome.ad ? JSON.stringify(outcome.ad) : '';
      addToSummary(summary, outcome, row.line, (ad) => publish(ad, json));
      // Problems name the row's line, which moves: rows with problems are checked every time.
      if (outcome.ad && outcome.problems.length === 0)
        kept.write(`${row.key}\t${outcome.published ? 1 : 0}\t${json}\n`);
    }
  }
  kept.close();
  renameSync(`${rowsFile}.next`, rowsFile);
  return summary;
}

/** A kept row: `published (1/0)<TAB>the ad's JSON` (JSON has no raw tabs). */
function splitEntry(entry: RowEntry): [published: boolean, json: string] {
  const tab = entry.indexOf('\t');
  return [entry.slice(0, tab) === '1', entry.slice(tab + 1)];
}

/** Row key → entry, from the file's last version, if it was checked in the same context. */
function readRowEntries(rowsFile: string, firstLine: string): Map<string, RowEntry> {
  const entries = new Map<string, RowEntry>();
  if (!existsSync(rowsFile)) return entries;
  const lines = readFileSync(rowsFile, 'utf8').split('\n');
  if (lines[0] !== firstLine) return entries;
  for (let index = 1; index < lines.length; index += 1) {
    const line = lines[index]!;
    const tab = line.indexOf('\t');
    if (tab > 0) entries.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return entries;
}
