// Keeps what each ads CSV compiled to, keyed by its text and everything its checks depend on
// (build date, city lists, blocked terms, the checking code). An unchanged file is not parsed again:
// its summary is read back, and its published ads stay in per-state pieces that the compiler
// concatenates into the state files (.content/ads/{State Name}.ndjson).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdFileCache } from './compile.ts';
import { checkAdFile, type AdFileContext, type AdFileSummary } from './check-ad-file.ts';

export interface CachedAdFile {
  file: string;
  key: string;
  /** States with published ads in this file. */
  states: string[];
}

const sha1 = (...parts: string[]) => {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
};

/** Changes whenever the code that checks ads changes, so old summaries are not trusted. */
function checkingCodeFingerprint(): string {
  const root = projectRoot();
  const schemas = join(root, 'src', 'schemas');
  const files = [
    ...['check-ad-file.ts', 'read-csv.ts', 'blocked-terms.ts', 'report.ts', 'ad-file-cache.ts'].map((name) => join(root, 'scripts', 'lib', name)),
    ...readdirSync(schemas).sort().map((name) => join(schemas, name)),
  ];
  return sha1(...files.map((file) => readFileSync(file, 'utf8')));
}

/** The folder with package.json above this module (it runs from scripts/lib/, or bundled from .build/). */
function projectRoot(): string {
  for (let dir = import.meta.dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  throw new Error(`No package.json above ${import.meta.dirname}`);
}

export function adFileCache(piecesDir: string): AdFileCache & { files: CachedAdFile[]; piecePath(key: string, state: string): string; prune(): void } {
  mkdirSync(piecesDir, { recursive: true });
  const files: CachedAdFile[] = [];
  const contextKeys = new WeakMap<AdFileContext, string>();
  const contextKey = (context: AdFileContext) => {
    let key = contextKeys.get(context);
    if (!key) {
      const cities = [...context.citiesByState].map(([state, names]) => `${state}:${[...names].join('|')}`).join('\n');
      key = sha1(context.buildDate, context.blockedTerms.join('\n'), cities, checkingCodeFingerprint());
      contextKeys.set(context, key);
    }
    return key;
  };
  const piecePath = (key: string, state: string) => join(piecesDir, key, `${state}.ndjson`);

  return {
    files,
    piecePath,
    summarise(file: string, text: string, context: AdFileContext): AdFileSummary {
      const key = sha1(contextKey(context), file, text);
      const summaryFile = join(piecesDir, key, 'summary.json');
      let summary: AdFileSummary;
      if (existsSync(summaryFile)) {
        summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as AdFileSummary;
      } else {
        const lines = new Map<string, string[]>();
        summary = checkAdFile(text, file, context, (ad) => {
          const list = lines.get(ad.state);
          if (list) list.push(JSON.stringify(ad));
          else lines.set(ad.state, [JSON.stringify(ad)]);
        });
        mkdirSync(join(piecesDir, key), { recursive: true });
        for (const [state, stateLines] of lines) writeFileSync(piecePath(key, state), `${stateLines.join('\n')}\n`);
        writeFileSync(summaryFile, JSON.stringify(summary));
      }
      files.push({ file, key, states: Object.keys(summary.counts) });
      return summary;
    },
    /** Removes the pieces of files that are gone or changed. */
    prune() {
      const used = new Set(files.map((entry) => entry.key));
      for (const name of readdirSync(piecesDir)) if (!used.has(name)) rmSync(join(piecesDir, name), { recursive: true, force: true });
    },
  };
}
