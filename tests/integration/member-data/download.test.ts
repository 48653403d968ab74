// Download my data (docs/product.md section 8): GET /api/account/data answers the signed-in member's own
// data as a JSON attachment — the account, every ad in every status with its texts and dates, the
// conversations with both sides' messages, the members blocked (by conversation) and the reports
// made — and never the other side's email or account id, nor anyone else's data.
import { beforeAll, describe, expect, test } from 'vitest';
import { cookieHeader, ORIGIN, todayUtc } from '../../helpers/api.ts';
import { addThread, blockAndReport } from '../../helpers/member-data.ts';
import { insertAdInReview, insertLiveAdWithEdit } from '../../helpers/moderation.ts';
import { testAppOnFixtureContent } from '../../helpers/pages.ts';
import { dayFromToday, makeMember, moveAd, type TestMember } from '../../helpers/posting.ts';
import { accountDataApiPath } from '../../../core/paths.ts';
import { storedRow } from '../../helpers/stored-rows.ts';

const t = testAppOnFixtureContent();

const download = (session?: string, headers: Record<string, string> = {}) =>
  Promise.resolve(
    t.app.request(`${ORIGIN}${accountDataApiPath()}`, {
      headers: { ...(session ? cookieHeader(session) : {}), ...headers },
    }),
  );

interface DataFile {
  format: number;
  account: Record<string, unknown>;
  ads: {
    id: number;
    status: string;
    title: string;
    description: string;
    expiresOn: string | null;
    pendingEdit: { title: string | null } | null;
    moderatorReason: string | null;
    moderatorNote: string | null;
  }[];
  conversations: {
    id: number;
    ad: { id: number; title: string };
    you: string;
    otherMember: string;
    messages: { from: string; text: string; sentAt: string }[];
  }[];
  blockedMembers: { blockedAt: string; conversations: number[] }[];
  reports: { adId: number; reason: string; note: string; createdAt: string }[];
}

/** Every key anywhere in a JSON value. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysOf(item, into);
  else if (value && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) {
      into.add(key);
      keysOf(inner, into);
    }
  return into;
}

let me: TestMember;
let other: TestMember;
let ids: Record<'review' | 'live' | 'rejected' | 'removed' | 'deleted' | 'expired', number>;
let theirAd: number;
let aboutTheirAd: number;
let aboutMyAd: number;

beforeAll(async () => {
  me = await makeMember(t);
  other = await makeMember(t);
  const mine = (title: string) => insertAdInReview(t, { accountId: me.accountId, title });
  ids = {
    review: await mine('Still in review'),
    live: await insertLiveAdWithEdit(t, {
      accountId: me.accountId,
      title: 'Live and edited',
      expiresOn: dayFromToday(20),
      pendingTitle: 'Live, with an edit waiting',
    }),
    rejected: await mine('Was rejected'),
    removed: await mine('Was removed'),
    deleted: await mine('I deleted this one'),
    expired: await mine('Expired last week'),
  };
  await moveAd(t, ids.rejected, {
    status: 'rejected',
    reason: 'contact',
    note: 'Take out the phone number.',
  });
  await moveAd(t, ids.removed, { status: 'removed', reason: 'spam' });
  await moveAd(t, ids.deleted, { status: 'deleted' });
  await moveAd(t, ids.expired, {
    status: 'live',
    postedOn: dayFromToday(-37),
    expiresOn: dayFromToday(-7),
  });
  theirAd = await insertLiveAdWithEdit(t, {
    accountId: other.accountId,
    title: 'Their hiking ad',
    pendingTitle: 'Their hiking ad, edited',
  });
  // I replied to their ad; they replied to mine. Messages both ways in both.
  aboutTheirAd = await addThread(
    t,
    { adId: theirAd, adTitle: 'Their hiking ad' },
    { posterId: other.accountId, replierId: me.accountId },
    [
      ['replier', 'Hello, I would like to join a hike.', 50],
      ['poster', 'Great, Saturday at nine?', 40],
      ['replier', 'Saturday works.', 30],
    ],
  );
  aboutMyAd = await addThread(
    t,
    { adId: ids.live, adTitle: 'Live and edited' },
    { posterId: me.accountId, replierId: other.accountId },
    [
      ['replier', 'Your ad sounds fun.', 20],
      ['poster', 'Thank you!', 10],
    ],
  );
  await blockAndReport(t, me.accountId, other.accountId, {
    ...{ adId: theirAd, reason: 'spam' },
    note: 'Posted the same ad in three cities.',
  });
  // What they did, which is not mine: their own block and report.
  await blockAndReport(t, other.accountId, me.accountId, {
    ...{ adId: ids.live, reason: 'other' },
    note: 'Their private note about my ad.',
  });
});

describe(`GET ${accountDataApiPath()}`, () => {
  test('a JSON attachment named for the day, never cached, indented', async () => {
    const response = await download(me.session);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="localboard-data-${todayUtc()}.json"`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    expect(text.startsWith('{\n  "format": 1,\n')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
  });

  test('the account: email, date of birth, created, verified, terms accepted', async () => {
    const file = (await (await download(me.session)).json()) as DataFile;
    expect(file.format).toBe(1);
    expect(file.account).toMatchObject({ email: me.email, role: 'member' });
    const row = (await storedRow<Record<string, string>>(
      t,
      'SELECT date_of_birth, created_at, email_verified_at, terms_accepted_at FROM accounts WHERE id = ?',
      me.accountId,
    ))!;
    expect(file.account.dateOfBirth).toBe(row.date_of_birth);
    expect(file.account.createdAt).toBe(row.created_at);
    expect(file.account.emailVerifiedAt).toBe(row.email_verified_at);
    expect(file.account.termsAcceptedAt).toBe(row.terms_accepted_at);
  });

  test('every ad in every status, with the waiting edit and the moderator’s reason', async () => {
    const file = (await (await download(me.session)).json()) as DataFile;
    const byId = new Map(file.ads.map((ad) => [ad.id, ad]));
    expect(file.ads).toHaveLength(6);
    expect(byId.get(ids.review)).toMatchObject({ status: 'review', title: 'Still in review' });
    expect(byId.get(ids.live)).toMatchObject({
      status: 'live',
      title: 'Live and edited',
      expiresOn: dayFromToday(20),
      pendingEdit: { title: 'Live, with an edit waiting' },
    });
    expect(byId.get(ids.rejected)).toMatchObject({
      status: 'rejected',
      moderatorReason: 'Contact details in the ad',
      moderatorNote: 'Take out the phone number.',
    });
    expect(byId.get(ids.removed)).toMatchObject({
      status: 'removed',
      moderatorReason: 'Spam or duplicate',
    });
    expect(byId.get(ids.deleted)).toMatchObject({ status: 'deleted' });
    expect(byId.get(ids.expired)).toMatchObject({
      status: 'expired',
      expiresOn: dayFromToday(-7),
    });
    expect(byId.get(ids.review)!.description).toBe(
      'I like early starts, long trails and a coffee afterwards.',
    );
  });

  test('both conversations with every message of both sides, labelled "you" and "the other member"', async () => {
    const file = (await (await download(me.session)).json()) as DataFile;
    expect(file.conversations.map((c) => c.id)).toEqual([aboutTheirAd, aboutMyAd]);
    const [replied, posted] = file.conversations;
    expect(replied).toMatchObject({
      ad: { id: theirAd, title: 'Their hiking ad' },
      you: 'replied to the ad',
      otherMember: 'the other member',
    });
    expect(replied!.messages.map((m) => [m.from, m.text])).toEqual([
      ['you', 'Hello, I would like to join a hike.'],
      ['the other member', 'Great, Saturday at nine?'],
      ['you', 'Saturday works.'],
    ]);
    expect(posted!.you).toBe('posted the ad');
    expect(posted!.messages.map((m) => [m.from, m.text])).toEqual([
      ['the other member', 'Your ad sounds fun.'],
      ['you', 'Thank you!'],
    ]);
  });

  test('the members I blocked, as the conversations I share with them; the reports I made', async () => {
    const file = (await (await download(me.session)).json()) as DataFile;
    expect(file.blockedMembers).toHaveLength(1);
    expect(file.blockedMembers[0]!.conversations).toEqual([aboutTheirAd, aboutMyAd]);
    expect(file.reports).toEqual([
      expect.objectContaining({
        adId: theirAd,
        reason: 'spam',
        note: 'Posted the same ad in three cities.',
      }),
    ]);
  });

  test('never the other side’s email or account id; never what they did', async () => {
    const text = await (await download(me.session)).text();
    expect(text).not.toContain(other.email);
    expect(text).not.toContain('Their private note about my ad.');
    expect(text).not.toContain('Their hiking ad, edited');
    expect(text).not.toContain(`account:${other.accountId}`);
    const keys = keysOf(JSON.parse(text));
    for (const key of [
      'accountId',
      'senderId',
      'posterId',
      'replierId',
      'blockedId',
      'otherSideId',
      'reporterKey',
      'reportedAccountId',
      'passwordHash',
    ])
      expect(keys).not.toContain(key);
    // Exactly one email address in the whole file: mine.
    expect(text.match(/[\w.+-]+@[\w-]+\.[\w.]+/g)).toEqual([me.email]);
  });

  test('the other member’s file is theirs: none of my ads, notes or email', async () => {
    const text = await (await download(other.session)).text();
    const file = JSON.parse(text) as DataFile;
    expect(file.account.email).toBe(other.email);
    expect(file.ads.map((ad) => ad.title)).toEqual(['Their hiking ad']);
    expect(text).not.toContain(me.email);
    expect(text).not.toContain('Take out the phone number.');
    expect(text).not.toContain('Posted the same ad in three cities.');
    expect(file.reports.map((report) => report.note)).toEqual(['Their private note about my ad.']);
    // The same conversations, seen from their side.
    expect(file.conversations.map((c) => [c.id, c.you])).toEqual([
      [aboutTheirAd, 'posted the ad'],
      [aboutMyAd, 'replied to the ad'],
    ]);
    expect(file.conversations[0]!.messages[0]).toMatchObject({
      from: 'the other member',
      text: 'Hello, I would like to join a hike.',
    });
  });

  test('a new member’s file is empty but whole', async () => {
    const fresh = await makeMember(t, { verified: false });
    const file = (await (await download(fresh.session)).json()) as DataFile;
    expect(file).toMatchObject({
      format: 1,
      account: { email: fresh.email, emailVerifiedAt: null },
      ads: [],
      conversations: [],
      blockedMembers: [],
      reports: [],
    });
  });

  test('signed out: 401 for a script, sign in and back to /account for a browser', async () => {
    const script = await download(undefined, { accept: 'application/json' });
    expect(script.status).toBe(401);
    expect(await script.json()).toEqual({ error: 'You are not signed in.' });

    const browser = await download(undefined, {
      accept: 'text/html,application/xhtml+xml',
      'sec-fetch-mode': 'navigate',
    });
    expect(browser.status).toBe(303);
    expect(browser.headers.get('location')).toBe('/signin?next=%2Faccount');

    const forged = await download('not-a-session-token', { accept: 'application/json' });
    expect(forged.status).toBe(401);
  });

  test('POST is not how it is asked for', async () => {
    const response = await t.app.request(`${ORIGIN}${accountDataApiPath()}`, {
      method: 'POST',
      headers: cookieHeader(me.session),
    });
    expect(response.status).toBe(405);
  });
});
