// The transparency report's numbers (pipeline/compile/transparency-report.ts) from the store's
// tallies, its CSV (core/transparency/transparency-csv.ts), the page a build without a database
// shows (zeros, and it says so), and the DSA statement schema's refusals
// (core/schemas/dsa-statement.ts): the rules the export is held to.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { DataContext } from '../../../src/renderer/useData.ts';
import { medianHours, transparencyReport } from '../../../pipeline/compile/transparency-report.ts';
import { dsaStatementSchema } from '../../../core/schemas/dsa-statement.ts';
import { NO_DATABASE_REPORT } from '../../../core/schemas/transparency.ts';
import { transparencyCsv } from '../../../core/transparency/transparency-csv.ts';
import Page from '../../../src/pages/transparency/+Page.tsx';

/** A tally row: an automatic trigger is an automated decision, the others are not. */
const decision = (month: string, kind: string, reason: string, trigger: string, count = 1) => ({
  ...{ month, kind, reason, trigger, automated: trigger === 'automatic', count },
});

const TALLIES = {
  decisions: [
    decision('2026-10', 'ad-removed', 'scam', 'moderator', 2),
    decision('2026-11', 'edit-rejected', 'spam', 'report'),
    decision('2026-11', 'ad-hidden', 'reports', 'automatic'),
  ],
  decisionHours: [
    { month: '2026-10', tenths: 10, count: 1 },
    { month: '2026-10', tenths: 30, count: 1 },
    { month: '2026-11', tenths: 5, count: 2 },
  ],
  reports: [{ month: '2026-11', received: 5, actedOn: 2 }],
  appealsFiled: [{ month: '2026-11', count: 2 }],
  appealOutcomes: [
    { month: '2026-11', outcome: 'reversed' as const, count: 1 },
    { month: '2026-11', outcome: 'upheld' as const, count: 1 },
  ],
  appealHours: [{ month: '2026-11', tenths: 245, count: 2 }],
};

describe('the transparency report', () => {
  test('counts each month and the total, newest month first', () => {
    const report = transparencyReport(TALLIES);
    expect(report.months.map((month) => month.period)).toEqual(['2026-11', '2026-10']);
    const [november, october] = report.months;
    expect(october).toMatchObject({ decisions: 2, medianHoursToDecision: 2, automated: 0 });
    expect(october!.byKind.removed).toBe(2);
    expect(november!.byKind).toMatchObject({ rejected: 1, hidden: 1, removed: 0 });
    expect(november!.byTrigger).toEqual({ report: 1, moderator: 0, automatic: 1 });
    expect(november).toMatchObject({
      reportsReceived: 5,
      reportsActedOn: 2,
      appealsFiled: 2,
      appealsReversed: 1,
      appealsUpheld: 1,
      medianHoursToAppealDecision: 24.5,
    });
    expect(report.total).toMatchObject({ decisions: 4, automated: 1, medianHoursToDecision: 0.8 });
    expect(report.total.byReason).toMatchObject({ scam: 2, spam: 1, reports: 1 });
  });

  test('medians, odd and even, to a tenth of an hour; none without durations', () => {
    expect(medianHours([{ month: 'm', tenths: 7, count: 3 }])).toBe(0.7);
    expect(
      medianHours([
        { month: 'a', tenths: 10, count: 1 },
        { month: 'b', tenths: 20, count: 1 },
      ]),
    ).toBe(1.5);
    expect(medianHours([])).toBeNull();
  });

  test('the CSV: a header, the total, then each month; empty cells where nothing exists', () => {
    const [header, total, ...months] = transparencyCsv(transparencyReport(TALLIES))
      .trimEnd()
      .split('\r\n');
    const columns = header!.split(',');
    const row = (line: string) =>
      Object.fromEntries(line.split(',').map((v, i) => [columns[i], v]));
    expect(row(total!)).toMatchObject({
      period: 'total',
      decisions: '4',
      decided_automatically_percent: '25',
    });
    expect(months.map((line) => row(line).period)).toEqual(['2026-11', '2026-10']);
    expect(row(months[1]!)).toMatchObject({
      median_hours_appeal_to_decision: '',
      appeals_filed: '0',
    });
    expect(transparencyCsv(NO_DATABASE_REPORT).trimEnd().split('\r\n')).toHaveLength(2);
  });

  test('without a database: zeros, and the page says so', () => {
    const html = renderToStaticMarkup(
      createElement(
        DataContext.Provider,
        {
          value: { brand: 'Localboard', report: NO_DATABASE_REPORT, csvPath: '/transparency.csv' },
        },
        createElement(Page),
      ),
    );
    expect(html).toContain('built without its moderation database, so every number here is zero');
    expect(html).toContain('<th scope="row">Ads removed</th><td>0</td>');
    expect(html).toContain('href="/transparency.csv"');
  });
});

const VALID = {
  decision_visibility: ['DECISION_VISIBILITY_CONTENT_REMOVED'],
  decision_ground: 'DECISION_GROUND_INCOMPATIBLE_CONTENT',
  incompatible_content_ground: 'Terms of use, clause 4.9',
  incompatible_content_explanation: 'Scam or fraud.',
  content_type: ['CONTENT_TYPE_TEXT'],
  category: 'STATEMENT_CATEGORY_SCAMS_AND_FRAUD',
  content_date: '2026-11-01',
  application_date: '2026-11-02',
  decision_facts: 'An ad was removed.',
  source_type: 'SOURCE_VOLUNTARY',
  automated_detection: 'No',
  automated_decision: 'AUTOMATED_DECISION_NOT_AUTOMATED',
  puid: 'abc-123_XYZ',
};
const issuesOf = (change: Record<string, unknown>) =>
  dsaStatementSchema
    .safeParse({ ...VALID, ...change })
    .error?.issues.map((issue) => issue.path.join('.'));

describe("the DSA transparency database's field rules", () => {
  test('a valid statement passes', () => {
    expect(issuesOf({})).toBeUndefined();
  });

  test.each([
    ['no decision of any kind', { decision_visibility: undefined }, 'decision_visibility'],
    ['an unknown visibility', { decision_visibility: ['REMOVED'] }, 'decision_visibility.0'],
    ['no category', { category: undefined }, 'category'],
    ['facts over 5,000 characters', { decision_facts: 'x'.repeat(5001) }, 'decision_facts'],
    [
      'an explanation over 2,000',
      { incompatible_content_explanation: 'x'.repeat(2001) },
      'incompatible_content_explanation',
    ],
    [
      'no incompatible ground',
      { incompatible_content_ground: undefined },
      'incompatible_content_ground',
    ],
    [
      'illegal content without its legal ground',
      { decision_ground: 'DECISION_GROUND_ILLEGAL_CONTENT' },
      'illegal_content_legal_ground',
    ],
    [
      'content type other without saying what',
      { content_type: ['CONTENT_TYPE_OTHER'] },
      'content_type_other',
    ],
    ['a date before 2000', { content_date: '1999-12-31' }, 'content_date'],
    ['a date not as YYYY-MM-DD', { application_date: '02/11/2026' }, 'application_date'],
    ['detection as true', { automated_detection: true }, 'automated_detection'],
    ['a puid with a space', { puid: 'a b' }, 'puid'],
    ['a source identity on own initiative', { source_identity: 'someone' }, 'source_identity'],
    ['a field the database does not know', { reporter_email: 'x@example.com' }, ''],
  ])('refuses %s', (_, change, path) => {
    expect(issuesOf(change)).toContain(path);
  });
});
