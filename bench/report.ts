// The benchmark's tables, as aligned Markdown: printed to the console and written to the docs.
import { CONTENT_STEPS, KNOWN_STEPS } from './build.ts';
import type { SetMeasurement } from './measure.ts';
import { PAGE_TYPE_LABELS, PAGE_TYPES } from './output.ts';

type Align = 'left' | 'right';
interface Column {
  header: string;
  align: Align;
}

const MB = 1_000_000;
const KB = 1_000;
const mb = (bytes: number) => (bytes / MB).toFixed(0);
const kb = (bytes: number) => (bytes / KB).toFixed(1);
const count = (value: number) => value.toLocaleString('en-US');
const left = (header: string): Column => ({ header, align: 'left' });
/** The steps timed in the tables: compile, client assets, prerender. */
export const TIMED_STEPS = ['content', 'vite', 'pages'] as const;
export const seconds = (value: number | undefined) =>
  value === undefined ? '–' : value.toFixed(1);
const right = (header: string): Column => ({ header, align: 'right' });

/** One row a set: pages by type, time, throughput, peak RSS by step, bytes written. */
export function summaryTable(sets: readonly SetMeasurement[]): string {
  const steps = stepColumns(sets);
  const columns = [
    left('set'),
    ...PAGE_TYPES.map((type) => right(PAGE_TYPE_LABELS[type])),
    right('pages'),
    right('wall s'),
    right('pages/s'),
    ...TIMED_STEPS.map((step) => right(`${step} s`)),
    ...steps.map((step) => right(`RSS ${step} MB`)),
    right('RSS max MB'),
    right('RSS all at once MB'),
    right('MB written'),
  ];
  const rows = sets.map((set) => [
    set.name,
    ...PAGE_TYPES.map((type) => count(set.pages[type])),
    count(set.totalPages),
    set.run.wallSeconds.toFixed(1),
    count(Math.round(set.totalPages / set.run.wallSeconds)),
    ...TIMED_STEPS.map((step) => seconds(set.run.stepSeconds.get(step))),
    ...steps.map((step) => {
      const bytes = set.run.peakRss.get(step);
      return bytes === undefined ? '–' : mb(bytes);
    }),
    mb(maxPeakRss(set)),
    mb(set.run.peakTreeRss),
    mb(set.bytesWritten),
  ]);
  return markdownTable(columns, rows);
}

/** Steps in the order the build runs them, then any step this benchmark does not know yet. */
function stepColumns(sets: readonly SetMeasurement[]): string[] {
  const reported = new Set(sets.flatMap((set) => [...set.run.peakRss.keys()]));
  const known = KNOWN_STEPS.filter((step) => reported.has(step));
  return [...known, ...[...reported].filter((step) => !known.includes(step))];
}

/** Per page type of one set: gzipped HTML (median, largest) and the JS/CSS of a first visit. */
export function pageTypeTable(set: SetMeasurement): string {
  const columns = [
    left('page type'),
    right('pages'),
    right('measured'),
    right('HTML gz median KB'),
    right('HTML gz max KB'),
    right('first-visit JS gz KB'),
    right('first-visit CSS gz KB'),
  ];
  const rows = PAGE_TYPES.filter((type) => set.pages[type] > 0).map((type) => {
    const html = set.html[type];
    const visit = set.firstVisit[type];
    return [
      PAGE_TYPE_LABELS[type],
      count(set.pages[type]),
      html ? count(html.measured) : '–',
      html ? kb(html.medianBytes) : '–',
      html ? kb(html.maxBytes) : '–',
      visit ? kb(visit.jsGzipBytes) : '–',
      visit ? kb(visit.cssGzipBytes) : '–',
    ];
  });
  return markdownTable(columns, rows);
}

/** How much more memory the full set needs than the subset: largest process, and all at once. */
export function memoryDifference(full: SetMeasurement, subset: SetMeasurement): string {
  const compare = (label: string, fullBytes: number, subsetBytes: number) =>
    `${label}: ${mb(fullBytes)} MB for ${full.name} vs ${mb(subsetBytes)} MB for ${subset.name}, ` +
    `${mb(fullBytes - subsetBytes)} MB apart.`;
  const contentSteps = (set: SetMeasurement) =>
    Math.max(0, ...CONTENT_STEPS.map((step) => set.run.peakRss.get(step) ?? 0));
  return [
    `- ${compare('Largest process', maxPeakRss(full), maxPeakRss(subset))}`,
    `- ${compare(`Largest of the steps that work on content (${CONTENT_STEPS.join(', ')})`, contentSteps(full), contentSteps(subset))}`,
    `- ${compare('All processes at once', full.run.peakTreeRss, subset.run.peakTreeRss)}`,
  ].join('\n');
}

/**
 * What the build said about itself next to what we counted: undefined when they agree, else what
 * is wrong (no page written, no count printed, or a different count).
 */
export function countProblem(set: SetMeasurement): string | undefined {
  const { prerenderedPages } = set.summary;
  if (set.totalPages === 0) return `${set.name}: the build succeeded but wrote no HTML page`;
  if (prerenderedPages === undefined) {
    return `${set.name}: the build printed no "Prerendered N pages" line`;
  }
  if (prerenderedPages !== set.indexPages) {
    return (
      `${set.name}: the build says ${count(prerenderedPages)} pages, ` +
      `but ${count(set.indexPages)} index.html files were written`
    );
  }
  return undefined;
}

/** One line a set: the counts checked, or what is wrong with them. */
export function countCheck(set: SetMeasurement): string {
  const problem = countProblem(set);
  if (problem) return `MISMATCH: ${problem}.`;
  const ads = set.summary.liveAds === undefined ? '' : `, ${count(set.summary.liveAds)} live ads`;
  return (
    `${set.name}: ${count(set.indexPages)} index.html files written, as many as the build ` +
    `says it prerendered${ads}.`
  );
}

export const maxPeakRss = (set: SetMeasurement) => Math.max(0, ...set.run.peakRss.values());

function markdownTable(columns: readonly Column[], rows: readonly string[][]): string {
  const widths = columns.map((column, index) =>
    Math.max(3, column.header.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const pad = (text: string, index: number) => {
    const width = widths[index] ?? 0;
    return columns[index]?.align === 'right' ? text.padStart(width) : text.padEnd(width);
  };
  const line = (cells: readonly string[]) => `| ${cells.map(pad).join(' | ')} |`;
  const rule = columns.map((column, index) => {
    const dashes = '-'.repeat((widths[index] ?? 3) + 2);
    return column.align === 'right' ? `${dashes.slice(1)}:` : dashes;
  });
  const header = line(columns.map((column) => column.header));
  return [header, `|${rule.join('|')}|`, ...rows.map(line)].join('\n');
}
