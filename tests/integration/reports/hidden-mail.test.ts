// Hiding by reports is told to the member (docs/product.md sections 6 and 8, issue 30): when reports
// hide a member's ad, its member is mailed once the statement of reasons (the rule, the reports'
// reasons and their count, that it was automatic, how to appeal), never who reported, even when
// reports arrive at once or keep coming after; an editor's ad mails nobody. When a moderator
// dismisses the reports, the member is mailed that the ad is back. Plain form posts, in-process on
// a real store; the mails received through the test mailer's outbox.
import { describe, expect, test } from 'vitest';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { type TestMember } from '../../helpers/moderation.ts';
import { editorAdIds, reportForm } from '../../helpers/reports.ts';
import { storedRow, storedRows } from '../../helpers/stored-rows.ts';

const t = moderationWorld({ moderators: 1, publishedAds: true });
const [moderator] = t.moderators;

const HIDDEN_SUBJECT = 'Your ad was taken off the site after reports';

async function reportAs(reporter: TestMember | undefined, adId: number, reason: string, n = 0) {
  const response = await reportForm(
    t.app,
    { ad: String(adId), reason },
    reporter ? { session: reporter.session } : { address: `203.0.113.${n}` },
  );
  expect(response.status).toBe(303);
}

describe('reports hide a member ad', () => {
  test('three reporters: the member is mailed the statement once, with no reporter in it', async () => {
    const { poster, id: adId } = await t.liveAd('hid-poster', { title: 'Hiking pals' });
    const reporters = await Promise.all(
      [1, 2, 3, 4].map((n) => t.signUpMember(`hid-reporter-${n}`)),
    );
    await reportAs(reporters[0], adId, 'spam');
    await reportAs(reporters[1], adId, 'spam');
    expect((await t.mailsOf(poster.email)).map((mail) => mail.subject)).toEqual([]);
    await reportAs(reporters[2], adId, 'commercial');
    // A fourth report of an ad hidden already mails nothing more.
    await reportAs(reporters[3], adId, 'spam');

    const mails = await t.mailsOf(poster.email);
    expect(mails.map((mail) => mail.subject)).toEqual([HIDDEN_SUBJECT]);
    const text = mails[0]!.text;
    expect(text).toContain('Members reported your ad “Hiking pals”');
    expect(text).toContain('clause 7 of our terms');
    expect(text).toContain('/terms#clause-7');
    expect(text).toContain('Reports received: Scam or spam (2), ');
    expect(text).toContain('(1).');
    expect(text).toContain('What prompted it: An automatic rule, after reports from members.');
    expect(text).toMatch(/You can appeal until \d{4}-\d{2}-\d{2}/);
    expect(text).toMatch(/\/account\/decisions\/\d+\?key=[0-9a-f]{32}/);
    for (const reporter of reporters) {
      expect(text).not.toContain(reporter.email);
      expect(text).not.toContain(`account:${reporter.accountId}`);
    }
    // The mail's link opens the statement without signing in.
    const link = /(\/account\/decisions\/\d+\?key=[0-9a-f]{32})/.exec(text)![1]!;
    const page = await t.getPage(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('was taken off the site after reports.');
  });

  test('reports arriving at once hide it once, and mail once', async () => {
    const { poster, id: adId } = await t.liveAd('hid-at-once', { title: 'Board games' });
    const reporters = await Promise.all([1, 2, 3, 4, 5].map((n) => t.signUpMember(`at-once-${n}`)));
    await Promise.all(reporters.map((reporter) => reportAs(reporter, adId, 'spam')));
    expect(
      await storedRows(
        t,
        "SELECT id FROM decision_statements WHERE kind = 'ad-hidden' AND ad_id = ?",
        adId,
      ),
    ).toHaveLength(1);
    expect((await t.mailsOf(poster.email)).map((mail) => mail.subject)).toEqual([HIDDEN_SUBJECT]);
  });

  test('one "under 18" report from a visitor hides it, and the mail says what it was', async () => {
    const { poster, id: adId } = await t.liveAd('hid-under-18', { title: 'Beach day' });
    await reportAs(undefined, adId, 'under-18', 60);
    const [mail] = await t.mailsOf(poster.email);
    expect(mail?.subject).toBe(HIDDEN_SUBJECT);
    expect(mail!.text).toContain('Reason: Reported as possibly involving someone under 18.');
    expect(mail!.text).not.toContain('203.0.113.60');
  });

  test("an editor's ad hidden by reports mails nobody", async () => {
    const before = t.publisher.reasons.length;
    const adId = editorAdIds()[0]!;
    await reportAs(undefined, adId, 'under-18', 70);
    expect(t.publisher.reasons.slice(before)).toEqual([
      `hid ad ${adId} (reported as possibly under 18)`,
    ]);
    await t.mailer.settled();
    expect(
      await storedRow(
        t,
        "SELECT id FROM decision_statements WHERE kind = 'ad-hidden' AND ad_id = ?",
        adId,
      ),
    ).toBeUndefined();
  });
});

describe('the reports dismissed', () => {
  test('the member is mailed that the ad is back; nothing names the reporters', async () => {
    const { poster, id: adId } = await t.liveAd('back-poster', { title: 'Jazz nights' });
    const reporter = await t.signUpMember('back-reporter');
    await reportAs(reporter, adId, 'under-18');
    const dismissed = await t.decideOnReports(
      `ad:${adId}`,
      { action: 'dismiss', note: `Spoke with ${reporter.email}.` },
      moderator.session,
    );
    expect(dismissed.status).toBe(303);
    expect((await t.storedAd(adId)).status).toBe('live');
    const mails = await t.mailsOf(poster.email);
    expect(mails.map((mail) => mail.subject).sort()).toEqual([
      'Your ad is back on the site',
      HIDDEN_SUBJECT,
    ]);
    const back = mails.find((mail) => mail.subject === 'Your ad is back on the site')!.text;
    expect(back).toContain('found nothing against our rules');
    expect(back).toContain(`/ad/${adId}`);
    // The moderator's note is for moderators: it never reaches the member.
    expect(back).not.toContain(reporter.email);
  });

  test('dismissing reports that did not hide the ad mails nobody', async () => {
    const { poster, id: adId } = await t.liveAd('not-hidden', { title: 'Chess club' });
    await reportAs(undefined, adId, 'spam', 80);
    await t.decideOnReports(`ad:${adId}`, { action: 'dismiss' }, moderator.session);
    expect(await t.mailsOf(poster.email)).toEqual([]);
  });
});
