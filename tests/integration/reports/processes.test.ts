// Reports racing from several processes on one database file (several servers, or a server and a
// script): the hiding decision is made in one BEGIN IMMEDIATE transaction with the report, so when
// three reporters file at the same moment from three processes, the ad is hidden exactly once.
// In one process better-sqlite3 runs each transaction whole, so only processes make a real race.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { signUpMember } from '../../helpers/moderation.ts';
import { hiddenRows, insertLiveAd, reportRows, reportsTestApp } from '../../helpers/reports.ts';

process.env.PASSWORD_HASH_COST = String(2 ** 14);

const t = reportsTestApp();
const script = fileURLToPath(new URL('../../helpers/report-race-process.ts', import.meta.url));

/** One process filing a report as `reporter` of each ad, round by round from `startAt`. */
function racer(reporter: string, adIds: number[], startAt: number) {
  return new Promise<Array<{ kind?: string; hidden?: string; error?: string }>>(
    (resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          script,
          t.dbPath,
          reporter,
          String(startAt),
          '100',
          ...adIds.map(String),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('error', reject);
      child.on('exit', () =>
        resolve(
          out
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line)),
        ),
      );
    },
  );
}

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
