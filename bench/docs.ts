// docs/benchmarks.md: the method (written by hand) and the figures of the latest runs, between
// markers that each run replaces: `bench:start` and `bench:end` for the standard run, and
// `bench:start {key}` and `bench:end {key}` for a run with --ads or --layout (the key says which,
// e.g. `1000000 per-state`). A run whose markers are not there yet is added at the end.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function writeBenchmarksDoc(file: string, figures: string, key?: string): void {
  writeDocSection(
    file,
    {
      start: key ? `<!-- bench:start ${key} -->` : '<!-- bench:start -->',
      end: key ? `<!-- bench:end ${key} -->` : '<!-- bench:end -->',
    },
    figures,
  );
}

/**
 * Replaces the figures between `markers.start` and `markers.end` in `file`; where the markers are
 * not there yet, adds them at the end, under `markers.heading` when given.
 */
export function writeDocSection(
  file: string,
  markers: { start: string; end: string; heading?: string },
  figures: string,
): void {
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const start = current.indexOf(markers.start);
  const end = current.indexOf(markers.end);
  const section = `${markers.start}\n${figures.trim()}\n${markers.end}`;
  const heading = markers.heading ? `${markers.heading}\n\n` : '';
  const text =
    start !== -1 && end > start
      ? `${current.slice(0, start)}${section}${current.slice(end + markers.end.length)}`
      : `${current.trimEnd() || METHOD}\n\n${heading}${section}\n`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The heading of a new file; the method is written by hand below it (see docs/benchmarks.md). */
const METHOD = '# Build benchmarks\n\nFigures of `npm run bench` (scripts/bench.ts).\n';
