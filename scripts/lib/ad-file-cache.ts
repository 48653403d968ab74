// Keeps what each ads CSV compiled to between builds, so that an unchanged file is not parsed again
// and a changed one only in the rows that changed.
// - Per file version, keyed by its text and everything its checks depend on (build date, city
//   lists, blocked terms, the compiler's code): its summary, and its published ads in per-state
//   pieces that the compiler puts together into the state files (state-ad-files.ts).
// - Per file, the outcome of each valid row, keyed by the row's raw text: when the file changes,
//   rows seen before are not parsed or checked again (csv-records.ts finds the rows).
import { hash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AD_COLUMNS } from '../../src/schemas/ad.ts';
import type { CompiledAd } from '../../src/schemas/compiled-content.ts';
import type { AdFileCache } from './compile.ts';
import { addToSummary, checkAdFile, checkAdRow, emptySummary, type AdFileContext, type AdFileSummary, type AdRowOutcome } from './check-ad-file.ts';
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

export function adFileCache(compiledDir: string): AdFileCache & { files: CachedAdFile[]; piecePath(key: string, state: string): string; prune(): void } {
  const piecesDir = join(compiledDir, 'pieces');
  const rowsDir = join(compiledDir, 'rows');
  mkdirSync(piecesDir, { recursive: true });
  mkdirSync(rowsDir, { recursive: true });
  const files: CachedAdFile[] = [];
  const contextKeys = new WeakMap<AdFileContext, string>();
  const contextKey = (context: AdFileContext) => {
    let key = contextKeys.get(context);
    if (!key) {
      const cities = [...context.citiesByState].map(([state, names]) => `${state}:${[...names].join('|')}`).join('\n');
      key = sha1(context.buildDate, context.blockedTerms.join('\n'), cities, compileCodeFingerprint());
      contextKeys.set(context, key);
    }
    return key;
  };
  const piecePath = (key: string, state: string) => join(piecesDir, key, `${state}.ndjson`);
  // Which version (key) each file was, by its stat, at the last build and at this one.
  const seenFile = join(piecesDir, 'files.json');
  const lastSeen = (existsSync(seenFile) ? JSON.parse(readFileSync(seenFile, 'utf8')) : {}) as Record<string, { stamp: string; key: string }>;
  const seen: Record<string, { stamp: string; key: string }> = {};
  const rowsPath = (file: string) => join(rowsDir, `${sha1(file)}.tsv`);

  return {
    files,
    piecePath,
    summarise(file: string, path: string, context: AdFileContext): AdFileSummary {
      // A file whose size, inode and modification time are those it had last time is not read.
      const stats = statSync(path);
      const stamp = `${contextKey(context)}:${stats.size}:${stats.ino}:${stats.mtimeMs}`;
      const last = lastSeen[file];
      const unchanged = last?.stamp === stamp && existsSync(join(piecesDir, last.key, 'summary.json'));
      const text = unchanged ? '' : readFileSync(path, 'utf8');
      const key = unchanged ? last.key : sha1(contextKey(context), file, text);
      const summaryFile = join(piecesDir, key, 'summary.json');
      let summary: AdFileSummary;
      if (existsSync(summaryFile)) {
        summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as AdFileSummary;
      } else {
        const pieces = new Map<string, PieceLine[]>();
        const publish = (ad: CompiledAd, json = JSON.stringify(ad)) => {
          const line = { json, city: ad.city, order: ad };
          const list = pieces.get(ad.state);
          if (list) list.push(line);
          else pieces.set(ad.state, [line]);
        };
        summary = checkChangedRows(file, text, context, rowsPath(file), contextKey(context), publish) ?? checkAdFile(text, file, context, (ad) => publish(ad));
        mkdirSync(join(piecesDir, key), { recursive: true });
        for (const [state, lines] of pieces) writePiece(piecePath(key, state), lines);
        writeFileSync(summaryFile, JSON.stringify(summary));
      }
      files.push({ file, key, states: Object.keys(summary.counts) });
      seen[file] = { stamp, key };
      return summary;
    },
    /** Removes the pieces and row outcomes of files that are gone or changed. */
    prune() {
      writeFileSync(seenFile, JSON.stringify(seen));
      const used = new Set(files.map((entry) => entry.key));
      for (const name of readdirSync(piecesDir)) if (!used.has(name) && name !== 'files.json') rmSync(join(piecesDir, name), { recursive: true, force: true });
      const rowFiles = new Set(files.map((entry) => rowsPath(entry.file)));
      for (const name of readdirSync(rowsDir)) if (!rowFiles.has(join(rowsDir, name))) rmSync(join(rowsDir, name), { force: true });
    },
  };
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
  const rows = records.slice(1).map((record) => ({ ...record, key: sha1(record.text) }));
  const known = readRowEntries(rowsFile, `${contextKey}\t${header.text}`);
  const fresh = rows.filter((row) => !known.has(row.key));
  const outcomes = new Map<(typeof rows)[number], AdRowOutcome>();
  if (fresh.length > 0) {
    const parsed = readCsv([header, ...fresh].map((record) => record.text).join('\n'), file, { required: AD_COLUMNS });
    if (parsed.problems.length > 0 || parsed.rows.length !== fresh.length) return undefined;
    fresh.forEach((row, index) => outcomes.set(row, checkAdRow(parsed.rows[index]!.cells, row.line, file, context)));
  }
  const summary = emptySummary();
  const kept: string[] = [`${contextKey}\t${header.text}`];
  for (const row of rows) {
    const entry = known.get(row.key);
    if (entry !== undefined) {
      const [published, json] = splitEntry(entry);
      addToSummary(summary, { problems: [], ad: JSON.parse(json) as CompiledAd, published }, row.line, (ad) => publish(ad, json));
      kept.push(`${row.key}\t${entry}`);
      continue;
    }
    const outcome = outcomes.get(row)!;
    const json = outcome.ad ? JSON.stringify(outcome.ad) : '';
    addToSummary(summary, outcome, row.line, (ad) => publish(ad, json));
    // Problems name the row's line, which moves: rows with problems are checked every time.
    if (outcome.ad && outcome.problems.length === 0) kept.push(`${row.key}\t${outcome.published ? 1 : 0}\t${json}`);
  }
  writeFileSync(rowsFile, `${kept.join('\n')}\n`);
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
