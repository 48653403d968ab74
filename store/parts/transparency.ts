// What the transparency report counts (docs/product.md section 6), as SQL aggregates over
// decision_statements, appeals and reports: counts by month and by what the report breaks them
// down by, never a row about a person or an ad. Durations come as counts by tenth of an hour, so
// the build finds the medians without reading one row a decision
// (pipeline/compile/transparency-report.ts). Read within the build's snapshot
// (published-ads.ts), on a database of any version: a table not there yet counts nothing.
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { StoreContext } from '../store-context.ts';
import type { Tables } from '../tables.ts';
import { tablesPresent } from './tables-present.ts';
import { rowCount } from './row-count.ts';

/** Decisions of one month with the same kind, reason, trigger and automation. */
export interface DecisionTally {
  month: string;
  kind: string;
  reason: string;
  trigger: string;
  automated: boolean;
  count: number;
}

/** How many durations of one month were `tenths` tenths of an hour long (rounded). */
export interface DurationTally {
  month: string;
  tenths: number;
  count: number;
}

export interface TransparencyTallies {
  decisions: DecisionTally[];
  /** From the content's submission to the decision, by the decision's month (bans left out). */
  decisionHours: DurationTally[];
  reports: { month: string; received: number; actedOn: number }[];
  appealsFiled: { month: string; count: number }[];
  /** By the month each was decided. */
  appealOutcomes: { month: string; outcome: 'upheld' | 'reversed'; count: number }[];
  /** From the appeal to its decision, by the decision's month. */
  appealHours: DurationTally[];
}

const month = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 7)`;

/** Tenths of an hour from `from` to `to` (ISO 8601 texts), rounded. */
function tenthsBetween(kind: StoreContext['kind'], from: string, to: string) {
  return kind === 'postgres'
    ? sql<number>`cast(round(extract(epoch from (cast(${sql.ref(to)} as timestamptz) - cast(${sql.ref(from)} as timestamptz))) / 360) as integer)`
    : sql<number>`cast(round((julianday(${sql.ref(to)}) - julianday(${sql.ref(from)})) * 240) as integer)`;
}

/** The DurationTallies of `rows`: from their `from` to their decided_at, by the month decided. */
async function hoursToDecision<TB extends keyof Tables>(
  kind: StoreContext['kind'],
  from: string,
  rows: SelectQueryBuilder<Tables, TB, object>,
): Promise<DurationTally[]> {
  const tenths = tenthsBetween(kind, from, 'decided_at');
  const found = await rows
    .select([month('decided_at').as('month'), tenths.as('tenths'), rowCount.as('count')])
    .groupBy([month('decided_at'), tenths])
    .execute();
  return numbers(found);
}

/** The tallies of the database `db` is on (a snapshot's transaction, in the build). */
export async function readTransparencyTallies(
  db: Kysely<Tables>,
  kind: StoreContext['kind'],
): Promise<TransparencyTallies> {
  const tables = await tablesPresent(db, kind, ['reports', 'decision_statements', 'appeals']);
  const none: TransparencyTallies = {
    decisions: [],
    decisionHours: [],
    reports: [],
    appealsFiled: [],
    appealOutcomes: [],
    appealHours: [],
  };
  const reports = tables.has('reports')
    ? await db
        .selectFrom('reports')
        .select([
          month('created_at').as('month'),
          rowCount.as('received'),
          sql<number>`cast(sum(case when resolution in ('removed', 'banned') then 1 else 0 end) as integer)`.as(
            'actedOn',
          ),
        ])
        .groupBy(month('created_at'))
        .execute()
    : [];
  if (!tables.has('decision_statements') || !tables.has('appeals'))
    return { ...none, reports: numbers(reports) };
  const decisions = await db
    .selectFrom('decision_statements')
    .select([
      month('decided_at').as('month'),
      'kind',
      'reason_key as reason',
      'trigger',
      'automated_decision as automated',
      rowCount.as('count'),
    ])
    // A refused verification selfie restricts no content or account (docs/product.md section 6,
    // "Verified members"): not a decision the report counts (its appeals are counted).
    .where('kind', '!=', 'verification-refused')
    .groupBy([month('decided_at'), 'kind', 'reason_key', 'trigger', 'automated_decision'])
    .execute();
  const decisionHours = await hoursToDecision(
    kind,
    'content_at',
    db
      .selectFrom('decision_statements')
      .where('content_at', 'is not', null)
      .where('kind', '!=', 'account-banned'),
  );
  const appealsFiled = await db
    .selectFrom('appeals')
    .select([month('filed_at').as('month'), rowCount.as('count')])
    .groupBy(month('filed_at'))
    .execute();
  const appealOutcomes = await db
    .selectFrom('appeals')
    .select([month('decided_at').as('month'), 'outcome', rowCount.as('count')])
    .where('outcome', 'is not', null)
    .groupBy([month('decided_at'), 'outcome'])
    .execute();
  const appealHours = await hoursToDecision(
    kind,
    'filed_at',
    db.selectFrom('appeals').where('outcome', 'is not', null),
  );
  return {
    decisions: decisions.map((row) => ({
      month: row.month,
      kind: row.kind,
      reason: row.reason,
      trigger: row.trigger,
      automated: Number(row.automated) === 1,
      count: Number(row.count),
    })),
    decisionHours,
    reports: numbers(reports),
    appealsFiled: numbers(appealsFiled),
    appealOutcomes: appealOutcomes.map((row) => ({
      month: row.month,
      outcome: row.outcome!,
      count: Number(row.count),
    })),
    appealHours,
  };
}

/** PostgreSQL's drivers may answer integers as strings: numbers, whatever the engine. */
function numbers<T extends { month: string }>(rows: T[]): T[] {
  return rows.map(
    (row) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [key, key === 'month' ? value : Number(value)]),
      ) as T,
  );
}
