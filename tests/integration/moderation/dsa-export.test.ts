// The export of statements of reasons (issue 30 item 4, "Done when"): after a removal by a
// moderator, a hide by reports and a ban, on a real store (either engine), every line
// `exportStatements` writes, and `npm run export:statements` writes, validates against the DSA
// transparency database's field rules (core/schemas/dsa-statement.ts), and none carries personal
// data: no email, no ad text, no moderator's note, no reporter; the ids are opaque.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { exportStatements } from '../../../server/moderation/dsa-export.ts';
import { dsaStatementSchema, type DsaStatement } from '../../../core/schemas/dsa-statement.ts';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { type TestMember } from '../../helpers/moderation.ts';
import { reportTaken, insertLiveAd } from '../../helpers/reports.ts';
import { onPostgres } from '../../helpers/test-store.ts';
import { moderateAdApiPath } from '../../../core/paths.ts';

const t = moderationWorld({ moderators: 1, publishedAds: true });
const [moderator] = t.moderators;
const root = join(import.meta.dirname, '..', '..', '..');
const today = new Date().toISOString().slice(0, 10);
let poster: TestMember;
let reporters: TestMember[];
const PRIVATE = [
  'Dinner and a walk by the river',
  'Generous gentleman',
  'Reads as paid company.',
] as const;

beforeAll(async () => {
  poster = await t.signUpMember('dsa-poster');
  reporters = await Promise.all([1, 2, 3].map((n) => t.signUpMember(`dsa-r${n}`)));
  // A removal by a moderator's own review.
  const removedId = await insertLiveAd(t, {
    accountId: poster.accountId,
    title: PRIVATE[0],
    description: `${PRIVATE[1]} seeks company for dinners.`,
  });
  const { revision } = await t.storedAd(removedId);
  const removed = await t.postForm(
    moderateAdApiPath(removedId, 'remove'),
    { revision: String(revision), reason: 'commercial', note: PRIVATE[2] },
    moderator.session,
  );
  expect(removed.status).toBe(303);
  // A hide by reports: an automatic rule.
  const hiddenId = await insertLiveAd(t, { accountId: poster.accountId, title: 'Reported' });
  for (const reporter of reporters)
    await reportTaken(t.app, { ad: String(hiddenId), reason: 'spam' }, reporter);
  // A ban.
  const banned = await t.ban(
    poster.accountId,
    { reason: 'scam', note: 'Asked for gift cards.' },
    moderator.session,
  );
  expect(banned.status).toBe(303);
});

async function exported(since = today): Promise<string[]> {
  const lines: string[] = [];
  await exportStatements(t.store, since, 'https://localboard.example', (line) => {
    lines.push(line);
  });
  return lines;
}

describe('npm run export:statements', () => {
  test('every line validates against the transparency database field rules', async () => {
    const lines = await exported();
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const statements = lines.map((line) => {
      expect(line.endsWith('\n')).toBe(true);
      const parsed = dsaStatementSchema.safeParse(JSON.parse(line));
      expect(parsed.error?.issues ?? []).toEqual([]);
      return parsed.data!;
    });
    const removal = statements.find((s) =>
      s.decision_facts.startsWith('A published personal ad was removed'),
    )!;
    expect(removal).toMatchObject({
      decision_visibility: ['DECISION_VISIBILITY_CONTENT_REMOVED'],
      decision_ground: 'DECISION_GROUND_INCOMPATIBLE_CONTENT',
      decision_ground_reference_url: 'https://localboard.example/terms#clause-4-1',
      incompatible_content_ground: 'Terms of use, clause 4.1: No commercial sexual services',
      category: 'STATEMENT_CATEGORY_OTHER_VIOLATION_TC',
      content_type: ['CONTENT_TYPE_TEXT'],
      source_type: 'SOURCE_VOLUNTARY',
      automated_detection: 'No',
      automated_decision: 'AUTOMATED_DECISION_NOT_AUTOMATED',
      application_date: today,
      account_type: 'ACCOUNT_TYPE_PRIVATE',
    });
    const hide = statements.find(
      (s) => s.decision_visibility?.[0] === 'DECISION_VISIBILITY_CONTENT_DISABLED',
    )!;
    expect(hide).toMatchObject({
      source_type: 'SOURCE_ARTICLE_16',
      automated_decision: 'AUTOMATED_DECISION_FULLY',
    });
    expect(hide.decision_facts).toContain('Reports: Scam or spam (3).');
    const ban = statements.find((s) => s.decision_account === 'DECISION_ACCOUNT_TERMINATED')!;
    expect(ban).toMatchObject({
      category: 'STATEMENT_CATEGORY_SCAMS_AND_FRAUD',
      content_type: ['CONTENT_TYPE_OTHER'],
      end_date_account_restriction: null,
    });
    // Opaque, distinct, stable ids.
    const puids = statements.map((s: DsaStatement) => s.puid);
    expect(new Set(puids).size).toBe(puids.length);
    expect(puids.every((puid) => /^[\w-]{20,}$/.test(puid))).toBe(true);
    expect((await exported()).map((line) => JSON.parse(line).puid)).toEqual(puids);
  });

  test('no personal data: no email, no ad text, no note', async () => {
    const text = (await exported()).join('');
    for (const member of [moderator, poster, ...reporters])
      expect(text).not.toContain(member.email);
    for (const words of [...PRIVATE, 'Asked for gift cards.']) expect(text).not.toContain(words);
    expect(text).not.toMatch(/@/);
  });

  test('--since leaves out what was decided before that day', async () => {
    expect(await exported('2999-01-01')).toEqual([]);
  });

  test.skipIf(onPostgres())(
    'the command writes the same lines, and refuses a missing --since',
    () => {
      const env = {
        ...process.env,
        ...t.env,
        PUBLIC_BASE_URL: 'https://localboard.example',
      };
      const tsx = join(root, 'node_modules', '.bin', 'tsx');
      const run = spawnSync(tsx, ['scripts/export-statements.ts', '--since', today], {
        cwd: root,
        env,
        encoding: 'utf8',
      });
      expect(run.stderr).toMatch(/\d+ statements of reasons since/);
      expect(run.status).toBe(0);
      const lines = run.stdout.split('\n').filter(Boolean);
      expect(lines.length).toBeGreaterThanOrEqual(3);
      for (const line of lines)
        expect(dsaStatementSchema.safeParse(JSON.parse(line)).success).toBe(true);
      const refused = spawnSync(tsx, ['scripts/export-statements.ts'], {
        cwd: root,
        env,
        encoding: 'utf8',
      });
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain('--since YYYY-MM-DD');
    },
  );
});
