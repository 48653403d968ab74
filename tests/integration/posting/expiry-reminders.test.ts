// The expiry reminder (docs/product.md section 6): 3 days before a live ad expires its member gets one
// mail, with the ad's title and full URLs to renew at /account and to see the ad; never twice,
// and never for an ad that is not live. Mail read from the test outbox.
import { describe, expect, test } from 'vitest';
import { sendExpiryReminders } from '../../../server/posting/expiry-reminders.ts';
import { TEST_MAIL_SITE, mailsTo } from '../../helpers/mail.ts';
import { testAppOnFixtureContent } from '../../helpers/pages.ts';
import {
  dayFromToday,
  makeMember,
  moveAd,
  type AdOutcome,
  storedAds,
  submit,
  validAd,
  type StoredAd,
  type TestMember,
} from '../../helpers/posting.ts';
import { adsApiPath, renewAdApiPath } from '../../../core/paths.ts';

const t = testAppOnFixtureContent();

async function adExpiringIn(
  days: number | null,
  status: AdOutcome['status'] = 'live',
  city = 'Los Angeles',
): Promise<[TestMember, StoredAd]> {
  const member = await makeMember(t);
  await submit(
    t,
    adsApiPath(),
    validAd({ city, title: `Ad expiring in ${days} days` }),
    member.session,
  );
  const ad = (await storedAds(t, member.accountId)).at(-1)!;
  const expiresOn = days === null ? {} : { expiresOn: dayFromToday(days) };
  if (status !== 'review') await moveAd(t, ad.id, { status, ...expiresOn });
  else {
    // In review with an expiry: removed once live, and put back in review on appeal.
    await moveAd(t, ad.id, { status: 'removed', ...expiresOn });
    const at = new Date().toISOString();
    expect(await t.store.moderation.reinstateAd(ad.id, { status: 'review' }, at)).toBe(true);
  }
  return [member, ad];
}

const reminders = (email: string) =>
  mailsTo(t.outboxDir, email).filter((mail) => mail.subject.includes('expires'));

describe('sendExpiryReminders', () => {
  test('mails once for each live ad expiring within 3 days, with full URLs', async () => {
    const [soon, soonAd] = await adExpiringIn(3);
    const [sooner] = await adExpiringIn(1);
    const [later] = await adExpiringIn(4);
    const [expired] = await adExpiringIn(0);
    const [inReview] = await adExpiringIn(2, 'review');
    const [removed] = await adExpiringIn(2, 'removed');
    const [deleted] = await adExpiringIn(2, 'deleted');

    const today = dayFromToday(0);
    expect(await sendExpiryReminders(t.store, t.mailer, TEST_MAIL_SITE, today, new Date())).toBe(2);
    await t.mailer.settled();
    for (const member of [later, expired, inReview, removed, deleted])
      expect(reminders(member.email)).toEqual([]);
    expect(reminders(sooner.email)).toHaveLength(1);

    const [mail, ...more] = reminders(soon.email);
    expect(more).toEqual([]);
    const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(`${dayFromToday(3)}T00:00:00Z`),
    );
    expect(mail!.subject).toBe(`Your Localboard ad expires on ${day}`);
    expect(mail!.text).toContain(`Your ad "Ad expiring in 3 days" in Los Angeles, California`);
    expect(mail!.text).toContain('Renew it on your account page:\nhttp://localhost/account\n');
    expect(mail!.text).toContain(`http://localhost/city/California/Los%20Angeles/ad/${soonAd.id}`);
    expect(mail!.html).toContain('href="http://localhost/account"');
    // Nobody's address but the member's own.
    const addresses = mail!.raw.match(/[\w.+-]+@[\w.-]+\.\w+/g) ?? [];
    expect(new Set(addresses.filter((address) => !address.endsWith('@localhost')))).toEqual(
      new Set([soon.email]),
    );
    expect((await storedAds(t, soon.accountId))[0]!.reminded_at).not.toBeNull();

    // A second run the same day sends nothing; the next day's only reminds the ad now 3 days
    // from expiry.
    expect(await sendExpiryReminders(t.store, t.mailer, TEST_MAIL_SITE, today, new Date())).toBe(0);
    expect(
      await sendExpiryReminders(t.store, t.mailer, TEST_MAIL_SITE, dayFromToday(1), new Date()),
    ).toBe(1);
    await t.mailer.settled();
    expect(reminders(soon.email)).toHaveLength(1);
    expect(reminders(later.email)).toHaveLength(1);
  });

  test('after a renewal, the ad is reminded again before its new expiry', async () => {
    const [member, ad] = await adExpiringIn(2, 'live', 'San Diego');
    expect(
      await sendExpiryReminders(t.store, t.mailer, TEST_MAIL_SITE, dayFromToday(0), new Date()),
    ).toBeGreaterThan(0);
    expect((await submit(t, renewAdApiPath(ad.id), {}, member.session)).status).toBe(303);
    expect((await storedAds(t, member.accountId))[0]!.reminded_at).toBeNull();
    // 27 days on, the renewed ad (30 days from today) is 3 days from expiry.
    expect(
      await sendExpiryReminders(t.store, t.mailer, TEST_MAIL_SITE, dayFromToday(27), new Date()),
    ).toBe(1);
    await t.mailer.settled();
    expect(reminders(member.email)).toHaveLength(2);
  });
});
