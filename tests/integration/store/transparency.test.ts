// What the transparency report counts (store/parts/transparency.ts), on SQLite and (in the
// postgres suite) on PostgreSQL, read in the build's snapshot: decisions by month, kind, reason,
// trigger and automation; durations by tenth of an hour; reports received and acted on; appeals
// filed and decided. Only counts come back.
import { describe, expect, it } from 'vitest';
import type { NewStatement } from '../../../store/parts/statements.ts';
import { storeForEachTest } from '../../helpers/test-store.ts';

const t = storeForEachTest();

async function decide(statement: Partial<NewStatement> & Pick<NewStatement, 'kind' | 'decidedAt'>) {
  const logId = await t.store.moderationLog.append({
    at: statement.decidedAt,
    by: { name: 'test' },
    action: 'remove',
  });
  return t.store.statements.insert({
    logId,
    accountId: null,
    reasonKey: 'spam',
    clause: '4.5',
    facts: { reason: 'Spam or duplicate' },
    trigger: 'moderator',
    automatedDetection: false,
    automatedDecision: false,
    decidedBy: null,
    contentAt: null,
    appealUntil: '2027-05-01T00:00:00.000Z',
    ...statement,
  });
}

async function report(createdAt: string, resolution: string | null) {
  await t.sql.run(
    `INSERT INTO reports (ad_id, reporter_key, reason, ad_copy, created_at, resolution)
     VALUES (1, ?, 'spam', '{}', ?, ?)`,
    `reporter ${createdAt}`,
    createdAt,
    resolution,
  );
}

describe('the transparency tallies', () => {
  it('counts by month what the report breaks down, and nothing about anyone', async () => {
    await decide({
      kind: 'ad-removed',
      decidedAt: '2026-10-31T23:00:00.000Z',
      contentAt: '2026-10-31T20:00:00.000Z',
    });
    const hidden = await decide({
      kind: 'ad-hidden',
      reasonKey: 'reports',
      trigger: 'automatic',
      automatedDecision: true,
      decidedAt: '2026-11-02T10:00:00.000Z',
      contentAt: '2026-11-02T09:30:00.000Z',
    });
    await decide({
      kind: 'account-banned',
      decidedAt: '2026-11-03T10:00:00.000Z',
      contentAt: '2025-01-01T00:00:00.000Z',
    });
    const appealId = await t.store.statements.fileAppeal({
      statementId: hidden,
      accountId: 1,
      text: 'Please look again.',
      filedAt: '2026-11-02T12:00:00.000Z',
    });
    await t.store.statements.decideAppeal(appealId!, {
      outcome: 'reversed',
      reply: null,
      by: 1,
      at: '2026-11-03T00:00:00.000Z',
    });
    await report('2026-11-01T00:00:00.000Z', 'removed');
    await report('2026-11-01T01:00:00.000Z', 'dismissed');
    await report('2026-11-01T02:00:00.000Z', null);

    const tallies = await t.store.publishedAds.snapshot((snapshot) => snapshot.transparency());
    const byMonth = <T extends { month: string }>(rows: T[]) =>
      [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    // A tally row: an automatic trigger is an automated decision, the others are not.
    const decision = (month: string, kind: string, reason: string, trigger: string) => ({
      ...{ month, kind, reason, trigger, automated: trigger === 'automatic', count: 1 },
    });
    expect(byMonth(tallies.decisions)).toEqual(
      byMonth([
        decision('2026-10', 'ad-removed', 'spam', 'moderator'),
        decision('2026-11', 'ad-hidden', 'reports', 'automatic'),
        decision('2026-11', 'account-banned', 'spam', 'moderator'),
      ]),
    );
    // Three hours and half an hour; a ban's account age is not a time to decide.
    expect(byMonth(tallies.decisionHours)).toEqual(
      byMonth([
        { month: '2026-10', tenths: 30, count: 1 },
        { month: '2026-11', tenths: 5, count: 1 },
      ]),
    );
    expect(tallies.reports).toEqual([{ month: '2026-11', received: 3, actedOn: 1 }]);
    expect(tallies.appealsFiled).toEqual([{ month: '2026-11', count: 1 }]);
    expect(tallies.appealOutcomes).toEqual([{ month: '2026-11', outcome: 'reversed', count: 1 }]);
    expect(tallies.appealHours).toEqual([{ month: '2026-11', tenths: 120, count: 1 }]);
  });

  it('counts nothing in an empty database', async () => {
    const tallies = await t.store.publishedAds.snapshot((snapshot) => snapshot.transparency());
    expect(tallies).toEqual({
      decisions: [],
      decisionHours: [],
      reports: [],
      appealsFiled: [],
      appealOutcomes: [],
      appealHours: [],
    });
  });
});
