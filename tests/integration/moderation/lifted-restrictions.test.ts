// A restriction a moderator lifted before any appeal decided it (docs/product.md section 6, issue
// 30), in-process on a real store, every form a plain POST: reports hide a member's ad, a moderator
// dismisses them and the ad is back. The hide's statement then says it was lifted and why, on the
// decision's page and on /account, and offers no appeal (a post of one is refused); an appeal the
// member had filed is closed, never left waiting on /moderate/appeals, and no moderator can decide
// it; the mail saying the ad is back says the appeal is closed.
import { describe, expect, test } from 'vitest';
import { exportStatements } from '../../../server/moderation/dsa-export.ts';
import { dsaStatementSchema } from '../../../core/schemas/dsa-statement.ts';
import { utcDay } from '../../../core/days.ts';
import { formatDate } from '../../../core/format.ts';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { reportForm, textOf } from '../../helpers/reports.ts';
import { accountPath, decideAppealApiPath, moderateAppealsPath } from '../../../core/paths.ts';
import { storedRow, storedRows } from '../../helpers/stored-rows.ts';

const t = moderationWorld({ moderators: 2, publishedAds: true });
const [moderatorA, moderatorB] = t.moderators;

const pageText = async (path: string, session: string) =>
  textOf(await (await t.getPage(path, session)).text());

/** A member's live ad, hidden by three members' reports; the member, the ad and the statement. */
async function hiddenAd(label: string) {
  const { poster, id: adId } = await t.liveAd(`${label}-poster`, { title: `${label} walks` });
  for (const n of [1, 2, 3]) {
    const reporter = await t.signUpMember(`${label}-reporter-${n}`);
    const sent = await reportForm(
      t.app,
      { ad: String(adId), reason: 'spam' },
      { session: reporter.session },
    );
    expect(sent.status).toBe(303);
  }
  const statement = await storedRow<{ id: number }>(
    t,
    "SELECT id FROM decision_statements WHERE kind = 'ad-hidden' AND ad_id = ?",
    adId,
  );
  return { poster, adId, statementId: statement!.id };
}

/** A moderator's decision on the ad's reports: dismissed (the default), the ad removed, or banned. */
async function decideOnReports(adId: number, action: 'dismiss' | 'remove' | 'ban' = 'dismiss') {
  const decided = await t.decideOnReports(
    `ad:${adId}`,
    { action, ...(action === 'dismiss' ? {} : { reason: 'spam' }) },
    moderatorA.session,
  );
  expect(decided.status).toBe(303);
}
const dismissReports = (adId: number) => decideOnReports(adId);

const lifted = `Lifted on ${formatDate(utcDay(new Date()))}: a moderator found no breach.`;

describe('a hide by reports lifted by a dismissal', () => {
  test('an open appeal of it is closed: the member reads why, no moderator is left to decide it', async () => {
    const { poster, adId, statementId } = await hiddenAd('appealed-hide');
    expect(
      (await t.appeal(statementId, 'Nothing here breaks a rule.', poster.session)).status,
    ).toBe(303);
    const appealId = (await storedRow<{ id: number }>(
      t,
      'SELECT id FROM appeals WHERE statement_id = ?',
      statementId,
    ))!.id;
    const waiting = await (await t.getPage(moderateAppealsPath(), moderatorB.session)).text();
    expect(waiting).toContain(`id="appeal-${appealId}-title"`);

    await dismissReports(adId);
    expect((await t.storedAd(adId)).status).toBe('live');

    const decision = await pageText(`/account/decisions/${statementId}`, poster.session);
    expect(decision).toContain(lifted);
    expect(decision).toContain('They found nothing wrong, and the ad is back.');
    expect(decision).toContain('A moderator then reviewed the reports.');
    expect(decision).toContain('before a moderator decided your appeal');
    expect(decision).toContain('Your appeal is closed.');
    expect(decision).not.toContain('In review');
    expect(decision).not.toContain('Send my appeal');
    expect(await pageText(accountPath(), poster.session)).toContain(lifted);

    // Off the moderators' list, and refused to a moderator who posts a decision anyway.
    const after = await (await t.getPage(moderateAppealsPath(), moderatorB.session)).text();
    expect(after).not.toContain(`id="appeal-${appealId}-title"`);
    const decided = await t.postForm(
      decideAppealApiPath(appealId),
      { outcome: 'upheld', reply: 'The reports were right.' },
      moderatorB.session,
    );
    expect(decided.status).toBe(409);
    expect(textOf(await decided.text())).toContain(
      'The restriction was lifted before this appeal was decided',
    );
    expect(
      await storedRow(t, 'SELECT outcome, decided_at FROM appeals WHERE id = ?', appealId),
    ).toEqual({ outcome: null, decided_at: null });
    expect(await t.store.statements.openAppealCount()).toBe(0);
    // The export of statements gives the hide its end: the day it was lifted.
    const lines: string[] = [];
    await exportStatements(t.store, '2000-01-01', 'https://localboard.example', (line) => {
      lines.push(line);
    });
    const exported = lines.map((line) => dsaStatementSchema.parse(JSON.parse(line)));
    expect(exported.map((line) => line.end_date_visibility_restriction)).toContain(
      utcDay(new Date()),
    );

    const back = (await t.mailsOf(poster.email)).find(
      (mail) => mail.subject === 'Your ad is back on the site',
    );
    expect(back?.text).toContain(
      'Your appeal of the ad being taken off the site is closed: there is nothing left to decide.',
    );
  });

  test('not appealed: the statement says it was lifted and offers no appeal; a post of one is refused', async () => {
    const { poster, adId, statementId } = await hiddenAd('unappealed-hide');
    expect(await pageText(`/account/decisions/${statementId}`, poster.session)).toContain(
      'Appeal this decision',
    );
    await dismissReports(adId);

    const decision = await pageText(`/account/decisions/${statementId}`, poster.session);
    expect(decision).toContain(lifted);
    expect(decision).toContain('The restriction was lifted, so there is nothing to appeal.');
    expect(decision).not.toContain('Appeal this decision');
    const refused = await t.appeal(statementId, 'Please look again.', poster.session);
    expect(refused.status).toBe(409);
    expect(textOf(await refused.text())).toContain('This restriction was lifted');
    expect(
      await storedRow(t, 'SELECT id FROM appeals WHERE statement_id = ?', statementId),
    ).toBeUndefined();

    const back = (await t.mailsOf(poster.email)).find(
      (mail) => mail.subject === 'Your ad is back on the site',
    );
    expect(back?.text).not.toContain('Your appeal');
  });

  test('hidden again by new reports: the new hide is a new decision, open to appeal', async () => {
    const { poster, adId, statementId } = await hiddenAd('hidden-twice');
    await dismissReports(adId);
    for (const n of [4, 5, 6]) {
      const reporter = await t.signUpMember(`hidden-twice-reporter-${n}`);
      await reportForm(t.app, { ad: String(adId), reason: 'spam' }, { session: reporter.session });
    }
    const hides = await storedRows<{ id: number; lifted_at: string | null }>(
      t,
      "SELECT id, lifted_at FROM decision_statements WHERE kind = 'ad-hidden' AND ad_id = ? ORDER BY id",
      adId,
    );
    expect(hides).toHaveLength(2);
    expect(hides[0]).toMatchObject({ id: statementId });
    expect(hides[0]!.lifted_at).not.toBeNull();
    expect(hides[1]!.lifted_at).toBeNull();
    expect(await pageText(`/account/decisions/${hides[1]!.id}`, poster.session)).toContain(
      'Appeal this decision',
    );
  });
});

describe('a hide by reports replaced by a removal or a ban', () => {
  test('removed instead: the hide says it was replaced, its open appeal is closed, the removal is open to appeal', async () => {
    const { poster, adId, statementId } = await hiddenAd('replaced-hide');
    await t.appeal(statementId, 'Nothing here breaks a rule.', poster.session);
    const appealId = (await storedRow<{ id: number }>(
      t,
      'SELECT id FROM appeals WHERE statement_id = ?',
      statementId,
    ))!.id;
    await decideOnReports(adId, 'remove');
    const removal = (await storedRow<{ id: number }>(
      t,
      "SELECT id FROM decision_statements WHERE kind = 'ad-removed' AND ad_id = ?",
      adId,
    ))!.id;

    const hide = await pageText(`/account/decisions/${statementId}`, poster.session);
    expect(hide).toContain(
      `Replaced on ${formatDate(utcDay(new Date()))} by a moderator's decision, which you can read and appeal on its own.`,
    );
    expect(hide).toContain('Your appeal is closed. You can appeal the decision that replaced it.');
    expect(
      await (await t.getPage(`/account/decisions/${statementId}`, poster.session)).text(),
    ).toContain(`href="/account/decisions/${removal}"`);
    const after = await (await t.getPage(moderateAppealsPath(), moderatorB.session)).text();
    expect(after).not.toContain(`id="appeal-${appealId}-title"`);
    expect(await pageText(`/account/decisions/${removal}`, poster.session)).toContain(
      'Appeal this decision',
    );
  });

  test('banned instead: the hide of its ad is replaced by the ban', async () => {
    const { adId, statementId } = await hiddenAd('banned-hide');
    await decideOnReports(adId, 'ban');
    const ban = await storedRow<{ id: number }>(
      t,
      "SELECT id FROM decision_statements WHERE kind = 'account-banned' AND account_id = (SELECT account_id FROM member_ads WHERE id = ?)",
      adId,
    );
    const hide = await storedRow<{ lifted_at: string | null; lifted_for: number | null }>(
      t,
      'SELECT lifted_at, lifted_for FROM decision_statements WHERE id = ?',
      statementId,
    );
    expect(hide!.lifted_at).not.toBeNull();
    expect(Number(hide!.lifted_for)).toBe(ban!.id);
  });
});
