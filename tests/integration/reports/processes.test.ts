// Reports racing from several processes on one database file (several servers, or a server and a
// script): the hiding decision is made in one BEGIN IMMEDIATE transaction with the report, so when
// three reporters file at the same moment from three processes, the ad is hidden exactly once.
// In one process better-sqlite3 runs each transaction whole, so only processes make a real race.
import { describe, expect, test } from 'vitest';
import { signUpMember } from '../../helpers/moderation.ts';
import { raceProcess } from '../../helpers/race-processes.ts';
import { hiddenRows, insertLiveAd, reportRows, reportsTestApp } from '../../helpers/reports.ts';

process.env.PASSWORD_HASH_COST = String(2 ** 14);

const t = reportsTestApp();

/** One process filing a report as `reporter` of each ad, round by round from `startAt`. */
const racer = (reporter: string, adIds: number[], startAt: number) =>
  raceProcess<{ kind?: string; hidden?: string; error?: string }>('./report-race-process.ts', [
    t.dbPath,
    reporter,
    String(startAt),
    '100',
    ...adIds.map(String),
  ]);

describe('three processes report one ad at the same moment, round after round', () => {
  test('every report is stored, and each ad is hidden exactly once', async () => {
    const rounds = 10;
    const poster = await signUpMember(t.app, t.db, 'process-race');
    const adIds = Array.from({ length: rounds }, () =>
      insertLiveAd(t.db, { accountId: poster.accountId }),
    );
    const startAt = Date.now() + 1500;
    const outcomes = await Promise.all(
      ['one', 'two', 'three'].map((reporter) => racer(reporter, adIds, startAt)),
    );
    for (const [round, adId] of adIds.entries()) {
      const filed = outcomes.map((side) => side[round]);
      expect(filed.every((outcome) => outcome?.kind === 'stored')).toBe(true);
      expect(filed.filter((outcome) => outcome?.hidden === 'reports')).toHaveLength(1);
      expect(reportRows(t.db, adId)).toHaveLength(3);
      expect(hiddenRows(t.db, adId)).toHaveLength(1);
    }
  }, 60_000);
});
