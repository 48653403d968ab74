// The transparency report's numbers as a CSV file (docs/product.md section 6): the same numbers as
// /transparency, one row a period (the total first, then each month, newest first), one column a
// number. The build writes it beside the page (src/pages/transparency/+prerenderUrls.ts).
import { getTransparency } from '../content/index.ts';
import {
  DECISION_KINDS,
  DECISION_REASONS,
  DECISION_TRIGGERS,
  type TransparencyPeriod,
  type TransparencyReport,
} from '../schemas/transparency.ts';

const keysOf = <K extends string>(record: Record<K, string>) => Object.keys(record) as K[];
const column = (key: string) => key.replaceAll('-', '_');

/** The share of decisions made automatically, in percent to a tenth; null without decisions. */
export function automatedShare(period: TransparencyPeriod): number | null {
  return period.decisions === 0
    ? null
    : Math.round((period.automated / period.decisions) * 1000) / 10;
}

type Column = readonly [string, (period: TransparencyPeriod) => number | string | null];

/** Each column: its header and its value in a period. */
const COLUMNS: readonly Column[] = [
  ['period', (period) => period.period],
  ['decisions', (period) => period.decisions],
  ...keysOf(DECISION_KINDS).map(
    (kind) =>
      [`kind_${column(kind)}`, (period: TransparencyPeriod) => period.byKind[kind]] as const,
  ),
  ...keysOf(DECISION_REASONS).map(
    (reason) =>
      [
        `reason_${column(reason)}`,
        (period: TransparencyPeriod) => period.byReason[reason],
      ] as const,
  ),
  ...keysOf(DECISION_TRIGGERS).map(
    (trigger) =>
      [
        `trigger_${column(trigger)}`,
        (period: TransparencyPeriod) => period.byTrigger[trigger],
      ] as const,
  ),
  ['decided_automatically', (period) => period.automated],
  ['decided_automatically_percent', automatedShare],
  ['reports_received', (period) => period.reportsReceived],
  ['reports_acted_on', (period) => period.reportsActedOn],
  ['appeals_filed', (period) => period.appealsFiled],
  ['appeals_reversed', (period) => period.appealsReversed],
  ['appeals_upheld', (period) => period.appealsUpheld],
  ['median_hours_posting_to_decision', (period) => period.medianHoursToDecision],
  ['median_hours_appeal_to_decision', (period) => period.medianHoursToAppealDecision],
];

/** The report as CSV text (a median or share that does not exist is an empty cell). */
export function transparencyCsv(report: TransparencyReport = getTransparency()): string {
  const rows = [report.total, ...report.months].map((period) =>
    COLUMNS.map(([, value]) => value(period) ?? '').join(','),
  );
  return [COLUMNS.map(([header]) => header).join(','), ...rows].map((row) => `${row}\r\n`).join('');
}
