// The transparency report's numbers (core/schemas/transparency.ts) from what the store counted in
// the build's snapshot (store/parts/transparency.ts): each month's, newest first, and the total.
// Medians come from the counts of durations by tenth of an hour, so they are exact to a tenth.
import type { DurationTally, TransparencyTallies } from '../../store/published-ads-reader.ts';
import {
  DECISION_REASONS,
  DECISION_TRIGGERS,
  emptyPeriod,
  type DecisionKind,
  type TransparencyPeriod,
  type TransparencyReport,
} from '../../core/schemas/transparency.ts';

/** A statement's kind (store/tables.ts StatementKind) as the report counts it. */
const KIND_OF: Record<string, DecisionKind> = {
  'ad-rejected': 'rejected',
  'edit-rejected': 'rejected',
  'ad-removed': 'removed',
  'ad-hidden': 'hidden',
  'photo-removed': 'photo-removed',
  'account-banned': 'banned',
};

export function transparencyReport(tallies: TransparencyTallies): TransparencyReport {
  const months = new Map<string, TransparencyPeriod>();
  const total = emptyPeriod('total');
  const both = (month: string, add: (period: TransparencyPeriod) => void) => {
    let period = months.get(month);
    if (!period) months.set(month, (period = emptyPeriod(month)));
    add(period);
    add(total);
  };
  for (const row of tallies.decisions)
    both(row.month, (period) => {
      period.decisions += row.count;
      const kind = KIND_OF[row.kind];
      if (kind) period.byKind[kind] += row.count;
      if (row.reason in DECISION_REASONS)
        period.byReason[row.reason as keyof typeof DECISION_REASONS] += row.count;
      if (row.trigger in DECISION_TRIGGERS)
        period.byTrigger[row.trigger as keyof typeof DECISION_TRIGGERS] += row.count;
      if (row.automated) period.automated += row.count;
    });
  for (const row of tallies.reports)
    both(row.month, (period) => {
      period.reportsReceived += row.received;
      period.reportsActedOn += row.actedOn;
    });
  for (const row of tallies.appealsFiled)
    both(row.month, (period) => {
      period.appealsFiled += row.count;
    });
  for (const row of tallies.appealOutcomes)
    both(row.month, (period) => {
      if (row.outcome === 'reversed') period.appealsReversed += row.count;
      else period.appealsUpheld += row.count;
    });
  for (const period of months.values()) {
    period.medianHoursToDecision = medianHours(
      tallies.decisionHours.filter((row) => row.month === period.period),
    );
    period.medianHoursToAppealDecision = medianHours(
      tallies.appealHours.filter((row) => row.month === period.period),
    );
  }
  total.medianHoursToDecision = medianHours(tallies.decisionHours);
  total.medianHoursToAppealDecision = medianHours(tallies.appealHours);
  return {
    fromDatabase: true,
    months: [...months.values()].sort((a, b) => b.period.localeCompare(a.period)),
    total,
  };
}

/** The median of the durations counted, in hours to a tenth; null when there are none. */
export function medianHours(tallies: readonly DurationTally[]): number | null {
  // The same duration may come once a month: add those up first.
  const byTenths = new Map<number, number>();
  for (const { tenths, count } of tallies)
    byTenths.set(tenths, (byTenths.get(tenths) ?? 0) + count);
  const sorted = [...byTenths].sort(([a], [b]) => a - b);
  const n = sorted.reduce((sum, [, count]) => sum + count, 0);
  if (n === 0) return null;
  /** The duration at 0-based position `index` of the sorted durations. */
  const at = (index: number) => {
    let seen = 0;
    for (const [tenths, count] of sorted) {
      seen += count;
      if (index < seen) return tenths;
    }
    return sorted.at(-1)![0];
  };
  const middle = n % 2 === 1 ? at((n - 1) / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
  return Math.round(middle) / 10;
}
