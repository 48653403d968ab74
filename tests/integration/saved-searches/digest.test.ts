// The saved searches' digest (docs/product.md section 11) with the outbox mailer: a member saves a
// search, an ad that matches is approved and published, the digest mails one message listing it
// (title and absolute link only) with the two unsubscribe headers (RFC 8058) and the link in the
// text; a second run sends nothing new; the one-click POST unsubscribes without signing in.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sendDigests } from '../../../server/saved-searches/digest.ts';
import { createMailer, type Mailer } from '../../../server/mail/mailer.ts';
import { searchIndex } from '../../../search/search-index.ts';
import type { MailSite } from '../../../server/mail/messages.ts';
import { outboxMails } from '../../helpers/mail.ts';
import { insertMemberAd } from '../../helpers/member-ads.ts';
import { alertsEnv, saveSearchAs } from '../../helpers/saved-searches.ts';
import { makeMember, type TestMember } from '../../helpers/posting.ts';
import { publishMemberAd, searchFixtureForFile } from '../../helpers/search-fixture.ts';

const SITE: MailSite = { brand: 'Localboard', baseUrl: 'https://localboard.example' };
const HOUR = 3_600_000;
const fixture = searchFixtureForFile();
let member: TestMember;
const start = new Date('2026-11-22T08:00:00.000Z');
const at = (hours: number) => new Date(start.getTime() + hours * HOUR);

beforeAll(async () => {
  member = await makeMember(fixture);
  await saveSearchAs(fixture, member, 'state=Florida&city=Miami');
});
afterAll(() => index.close());

// The index the build wrote, as the server reads it (opened again after each publish).
const index = searchIndex();
const run = async (when: Date, mailer: Mailer = fixture.mailer) => {
  const outcome = await sendDigests(fixture.store, index, mailer, SITE, when, () => {});
  await mailer.settled();
  return outcome;
};
const digestsTo = (email: string) =>
  outboxMails(fixture.outboxDir).filter(
    (mail) => mail.to === email && mail.raw.includes('List-Unsubscribe:'),
  );
const digests = () => digestsTo(member.email);

describe('the digest', () => {
  test('mails the new matching ad once, with one-click unsubscribe; a second run sends nothing', async () => {
    // Nothing new since the search was saved: no mail.
    expect(await run(at(1))).toEqual({ checked: 1, mailed: 0, failed: 0 });
    expect(digests()).toEqual([]);

    const adId = await insertMemberAd(fixture, {
      state: 'Florida',
      city: 'Miami',
      title: 'Sunset walks on the beach',
      description: 'A description the digest never shows.',
      postedOn: '2026-11-22',
    });
    await publishMemberAd(fixture, {
      state: 'Florida',
      city: 'Orlando',
      title: 'Not in Miami',
    });

    // Looked at an hour ago: not again until a day has passed.
    expect(await run(at(2))).toEqual({ checked: 0, mailed: 0, failed: 0 });
    expect(digests()).toEqual([]);
    expect(await run(at(26))).toEqual({ checked: 1, mailed: 1, failed: 0 });
    const [mail] = digests();
    expect(digests()).toHaveLength(1);
    expect(mail!.subject).toBe('1 new ad: in Miami, Florida');
    expect(mail!.text).toContain(
      `Sunset walks on the beach\n${SITE.baseUrl}/city/Florida/Miami/ad/${adId}\n`,
    );
    expect(mail!.text).not.toContain('Not in Miami');
    expect(mail!.text).not.toContain('never shows');
    expect(mail!.html).not.toContain('never shows');
    const unsubscribe = /^https:\/\/localboard\.example\/unsubscribe\/[A-Za-z0-9_-]{43}$/m.exec(
      mail!.text,
    )?.[0];
    expect(unsubscribe).toBeDefined();
    // The headers as a mail client reads them: unfolded (RFC 5322).
    const headers = mail!.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n(?=[ \t])/g, '');
    expect(headers).toMatch(new RegExp(`^List-Unsubscribe: <${unsubscribe}>$`, 'm'));
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);

    // A second run, and runs at once (several instances): nothing more.
    expect(await run(at(27))).toEqual({ checked: 0, mailed: 0, failed: 0 });
    const atOnce = await Promise.all([run(at(51)), run(at(51)), run(at(51))]);
    expect(atOnce.map((outcome) => outcome.checked).sort()).toEqual([0, 0, 1]);
    expect(digests()).toHaveLength(1);

    // A day later, only what is new since.
    await publishMemberAd(fixture, {
      state: 'Florida',
      city: 'Miami',
      title: 'Salsa on Fridays',
    });
    const both = await Promise.all([run(at(76)), run(at(76))]);
    expect(both.map((outcome) => outcome.mailed).sort()).toEqual([0, 1]);
    expect(digests()).toHaveLength(2);
    const second = digests()[1]!;
    expect(second.text).toContain('Salsa on Fridays');
    expect(second.text).not.toContain('Sunset walks');

    // The confirm page, then the one-click POST a mail client makes: no session, no origin.
    const path = new URL(unsubscribe!).pathname;
    const confirm = await fixture.app.request(`http://localhost${path}`);
    expect(confirm.status).toBe(200);
    const confirmPage = await confirm.text();
    expect(confirmPage).toContain('<strong>in Miami, Florida</strong>');
    expect(confirmPage).toContain(`<form action="${path}" method="post">`);
    const oneClick = await fixture.app.request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain('You are unsubscribed');
    expect(await fixture.store.savedSearches.listOwned(member.accountId)).toEqual([]);
    const again = await fixture.app.request(`http://localhost${path}`, { method: 'POST' });
    expect(again.status).toBe(404);
    expect((await fixture.app.request(`http://localhost${path}`)).status).toBe(404);
    expect((await fixture.app.request('http://localhost/unsubscribe/nonsense')).status).toBe(404);
  });

  test('an ad approved later the same day, with a lower id, is new; a failed mail is tried again', async () => {
    const saver = await makeMember(fixture);
    await saveSearchAs(fixture, saver, 'state=Texas&city=Austin');
    const austin = { state: 'Texas', city: 'Austin', postedOn: '2026-11-22' };
    // Written first, approved last: the lower id.
    const writtenFirst = await insertMemberAd(fixture, {
      ...austin,
      title: 'Bouldering partner',
      status: 'review',
    });
    await publishMemberAd(fixture, { ...austin, title: 'Live music nights' });
    const day = new Date('2026-11-22T20:00:00.000Z');
    await sendDigests(fixture.store, index, fixture.mailer, SITE, day, () => {});
    await fixture.mailer.settled();
    const mine = () => digestsTo(saver.email);
    expect(mine().map((mail) => mail.subject)).toEqual(['1 new ad: in Austin, Texas']);

    // Approved now, that same day, as a moderator's approval stores it.
    expect(
      await fixture.store.moderation.approveNew(writtenFirst, 1, new Date().toISOString(), {
        postedOn: '2026-11-22',
        expiresOn: '2026-12-22',
      }),
    ).toBe(true);
    await fixture.publish();
    // The mail server refuses the connection: the digest is given back, not lost.
    const refusing = createMailer({
      smtpUrl: 'smtp://127.0.0.1:9',
      outboxDir: fixture.outboxDir,
      from: 'no-reply@localhost',
      log: () => {},
    });
    const nextDay = new Date(day.getTime() + 25 * HOUR);
    const failedRun = await sendDigests(fixture.store, index, refusing, SITE, nextDay, () => {});
    expect(failedRun).toMatchObject({ mailed: 0, failed: 1 });
    expect(mine()).toHaveLength(1);
    await sendDigests(fixture.store, index, fixture.mailer, SITE, nextDay, () => {});
    await fixture.mailer.settled();
    expect(mine()).toHaveLength(2);
    expect(mine()[1]!.text).toContain('Bouldering partner');
    expect(mine()[1]!.text).not.toContain('Live music nights');
  });

  test('a member who chose it gets a push queued with the digest, for the server to send', async () => {
    const saver = await makeMember(fixture);
    await saveSearchAs(fixture, saver, 'state=Texas&city=Dallas');
    const now = new Date().toISOString();
    const device = {
      endpoint: 'https://fcm.googleapis.com/fcm/send/digest-phone',
      p256dh: 'B'.repeat(87),
      auth: 'A'.repeat(22),
    };
    await fixture.store.pushes.subscribe(saver.accountId, null, device, 'Chrome on Android', now);
    const settings = { requests: false, savedSearches: true, messageText: false };
    await fixture.store.pushes.saveSettings(saver.accountId, settings, now);
    await publishMemberAd(fixture, {
      state: 'Texas',
      city: 'Dallas',
      title: 'Line dancing on Saturdays',
    });
    const day = new Date('2026-11-24T20:00:00.000Z');
    await sendDigests(fixture.store, index, fixture.mailer, SITE, day, () => {});
    await fixture.mailer.settled();
    expect(digestsTo(saver.email)).toHaveLength(1);
    const queued = await fixture.store.pushes.claimDue(day.toISOString(), day.toISOString(), 10);
    expect(queued.map((push) => [push.endpoint, push.topic])).toEqual([
      [device.endpoint, expect.stringMatching(/^s\d+$/)],
    ]);
    expect(JSON.parse(queued[0]!.payload).notification).toMatchObject({
      title: 'New ads on Localboard',
      body: '1 new ad for one of your saved searches.',
      navigate: `${SITE.baseUrl}/search?state=Texas&city=Dallas`,
    });
  });

  test('npm run alerts -- send mails the digest once, beside the server, on its database', async () => {
    const saver = await makeMember(fixture);
    await saveSearchAs(fixture, saver, 'q=kayak');
    const adId = await publishMemberAd(fixture, {
      state: 'California',
      city: 'San Diego',
      title: 'Kayak mornings in the bay',
    });
    const outbox = join(fixture.dir, 'script-outbox');
    const send = () =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/alerts.ts', 'send'], {
        cwd: join(import.meta.dirname, '..', '..', '..'),
        encoding: 'utf8',
        env: alertsEnv(fixture, { MAIL_OUTBOX_DIR: outbox, PUBLIC_BASE_URL: SITE.baseUrl }),
      });
    const first = send();
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('mailed 1 digest.');
    const mails = outboxMails(outbox);
    expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([
      [saver.email, '1 new ad: “kayak”'],
    ]);
    expect(mails[0]!.text).toContain(`${SITE.baseUrl}/city/California/San%20Diego/ad/${adId}`);
    const second = send();
    expect(second.stdout).toContain('mailed 0 digests.');
    expect(outboxMails(outbox)).toHaveLength(1);
  });
});
