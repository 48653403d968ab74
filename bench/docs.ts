// docs/benchmarks.md: the method (written by hand) and the figures of the latest run, between the
// bench:start and bench:end markers, which every run replaces.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

export function writeBenchmarksDoc(file: string, figures: string): void {
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const section = `${START}\n${figures.trim()}\n${END}`;
  const text =
    start !== -1 && end > start
      ? `${current.slice(0, start)}${section}${current.slice(end + END.length)}`
      : `${current.trimEnd() || METHOD}\n\n${section}\n`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The heading of a new file; the method is written by hand below it (see docs/benchmarks.md). */
const METHOD = '# Build benchmarks\n\nFigures of `npm run bench` (scripts/bench.ts).\n';
