// Posting's rules hold across server instances (docs/product.md sections 6 and 12): two instances on
// one PostgreSQL, each with its own store on the same schema, taking a member's requests at the
// same moment. On SQLite, the embedded default of one instance, both sides share its one store.
// The limits (3 ads in review or live; 1 new ad a city in 24 hours) and a ban racing a post are
// settled by the member's lock; the expiry reminders, run by every instance every hour, mail each
// ad once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Refusal } from '../../../core/refusal.ts';
import { banAccount } from '../../../server/moderation/accounts.ts';
import { sendExpiryReminders } from '../../../server/posting/expiry-reminders.ts';
import { ACTIVE_LIMIT, postAd } from '../../../server/posting/member-ads.ts';
import type { NewMemberAd } from '../../../store/parts/member-ads.ts';
import type { StoreHandle } from '../../../store/store.ts';
import { addDays, utcDay } from '../../../core/days.ts';
import { mailsTo, TEST_MAIL_SITE, testMailer } from '../../helpers/mail.ts';
import { onPostgres, openTestStore, type TestStore } from '../../helpers/test-store.ts';
import { outcomeOrRefusal, SAMPLE_MEMBER_AD } from '../../helpers/member-ads.ts';
import { accountInStore } from '../../helpers/store-accounts.ts';

let dir: string;
let one: TestStore;
/** The other instance's store (the same one on SQLite). */
let two: StoreHandle;
let accounts = 0;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'localboard-instances-'));
  one = await openTestStore(dir);
  two = onPostgres() ? (await openTestStore(dir)).store : one.store;
});

afterEach(async () => {
  if (two !== one.store) await two.close();
  await one.store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A new account, made and verified through the store (a role as the operator gives it); its id. */
async function account(role: 'member' | 'moderator' = 'member'): Promise<number> {
  accounts += 1;
  const id = await accountInStore(one.store, `member-${accounts}@example.com`);
  if (role === 'moderator') await one.store.moderation.setRole(id, role);
  return id;
}

const ad = (city: string, title = SAMPLE_MEMBER_AD.title): NewMemberAd => ({
  ...SAMPLE_MEMBER_AD,
  city,
  title,
});

describe('two instances at the same moment', () => {
  it("a member's 3rd and 4th ad: one stored, the other refused, round after round", async () => {
    for (let round = 0; round < 10; round += 1) {
      const member = await account();
      for (const city of ['Los Angeles', 'San Diego'])
        expect(await postAd(one.store, member, ad(city), '[]', new Date())).toHaveProperty('id');
      const outcomes = await Promise.all([
        outcomeOrRefusal(postAd(one.store, member, ad('San Jose'), '[]', new Date())),
        outcomeOrRefusal(postAd(two, member, ad('Fresno'), '[]', new Date())),
      ]);
      const refused = outcomes.filter((outcome) => outcome instanceof Refusal);
      expect(refused).toEqual([new Refusal('conflict', ACTIVE_LIMIT)]);
      expect(await one.store.memberAds.countInReviewOrLive(member, utcDay())).toBe(3);
    }
  });

  it('two ads in one city: one stored, the other refused until 24 hours after the first', async () => {
    for (let round = 0; round < 5; round += 1) {
      const member = await account();
      const outcomes = await Promise.all([
        outcomeOrRefusal(postAd(one.store, member, ad('Los Angeles', 'One'), '[]', new Date())),
        outcomeOrRefusal(postAd(two, member, ad('Los Angeles', 'Two'), '[]', new Date())),
      ]);
      const refused = outcomes.filter((outcome) => outcome instanceof Refusal);
      expect(refused.map((refusal) => refusal.kind)).toEqual(['too-many']);
      expect((await one.store.memberAds.listOwned(member)).length).toBe(1);
    }
  });

  it('a post and a ban of its account: no ad is left in review on the banned account', async () => {
    const moderator = await account('moderator');
    const by = { accountId: moderator, email: 'moderator@example.com' };
    for (let round = 0; round < 10; round += 1) {
      const member = await account();
      const [posted, banned] = await Promise.all([
        outcomeOrRefusal(postAd(one.store, member, ad('Los Angeles'), '[]', new Date())),
        banAccount(two, by, member, { reason: 'Spam or duplicate' }, new Date()),
      ]);
      expect(banned.kind).toBe('done');
      // Posted first, the ad was removed with the ban; banned first, the post was refused.
      if (posted instanceof Refusal) expect(posted.kind).toBe('forbidden');
      else expect(banned).toMatchObject({ removedInReview: [posted.id] });
      expect(await one.store.moderation.adsInReviewOrLiveOf(member)).toEqual([]);
    }
  });

  it('the expiry reminders, run by both: one mail for each ad', async () => {
    const today = utcDay();
    const emails: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      const member = await account();
      emails.push(`member-${accounts}@example.com`);
      const id = await one.store.memberAds.insert(member, ad('Los Angeles'), '[]', today);
      await one.store.moderation.approveNew(id, 1, today, {
        postedOn: today,
        expiresOn: addDays(today, 2),
      });
    }
    const outboxes = [join(dir, 'outbox-one'), join(dir, 'outbox-two')];
    const mailers = outboxes.map((outbox) => testMailer(outbox));
    const sent = await Promise.all([
      sendExpiryReminders(one.store, mailers[0]!, TEST_MAIL_SITE, today, new Date()),
      sendExpiryReminders(two, mailers[1]!, TEST_MAIL_SITE, today, new Date()),
    ]);
    await Promise.all(mailers.map((mailer) => mailer.settled()));
    expect(sent[0]! + sent[1]!).toBe(12);
    for (const email of emails)
      expect(outboxes.flatMap((outbox) => mailsTo(outbox, email))).toHaveLength(1);
  });
});
