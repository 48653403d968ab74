// docs/benchmarks.md: the method (written by hand) and the figures of the latest runs, between
// markers that each run replaces: `bench:start` and `bench:end` for the standard run, and
// `bench:start {key}` and `bench:end {key}` for a run with --ads or --layout (the key says which,
// e.g. `1000000 per-state`). A run whose markers are not there yet is added at the end.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function writeBenchmarksDoc(file: string, figures: string, key?: string): void {
  const startMarker = key ? `<!-- bench:start ${key} -->` : '<!-- bench:start -->';
  const endMarker = key ? `<!-- bench:end ${key} -->` : '<!-- bench:end -->';
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const start = current.indexOf(startMarker);
  const end = current.indexOf(endMarker);
  const section = `${startMarker}\n${figures.trim()}\n${endMarker}`;
  const text =
    start !== -1 && end > start
      ? `${current.slice(0, start)}${section}${current.slice(end + endMarker.length)}`
      : `${current.trimEnd() || METHOD}\n\n${section}\n`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The heading of a new file; the method is written by hand below it (see docs/benchmarks.md). */
const METHOD = '# Build benchmarks\n\nFigures of `npm run bench` (scripts/bench.ts).\n';
