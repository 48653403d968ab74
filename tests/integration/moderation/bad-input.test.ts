// A bad-input table for the moderation actions (issue 10): wrong types, missing fields, an unknown
// reason, a huge note, unknown ids, an ad that is not waiting for review, the moderator's own ad,
// a banned or moderator account. Each answer is a 4xx with a message, as JSON and as a form post
// (the queue page with the message, what was typed kept); never a 500; nothing changed.
import { beforeAll, describe, expect, test } from 'vitest';
import {
  approveInStore,
  insertAdInReview,
  logRows,
  postModerationForm,
  postModerationJson,
  signUpMember,
  signUpModerator,
  storedAd,
  type TestMember,
} from '../../helpers/moderation.ts';
import { bannerOf, testAppOnFixtureContent } from '../../helpers/pages.ts';
import { cookieHeader, ORIGIN } from '../../helpers/api.ts';
import { banAccountApiPath, moderateAdApiPath } from '../../../core/paths.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const t = testAppOnFixtureContent();
let moderator: TestMember;
let otherModerator: TestMember;
let poster: TestMember;
const ids = { review: 0, rejected: 0, live: 0, deleted: 0, own: 0 };
beforeAll(async () => {
  moderator = await signUpModerator(t.app, t.store);
  otherModerator = await signUpModerator(t.app, t.store);
  poster = await signUpMember(t.app, t.store, 'poster');
  ids.review = await insertAdInReview(t, { accountId: poster.accountId });
  // Rejected, approved and deleted as the moderation and posting code store them: revision 2.
  const at = new Date().toISOString();
  ids.rejected = await insertAdInReview(t, { accountId: poster.accountId });
  await t.store.moderation.rejectNew(ids.rejected, 1, { reason: 'Spam or duplicate' }, at);
  ids.live = await insertAdInReview(t, { accountId: poster.accountId });
  await approveInStore(t, ids.live, { postedOn: '2026-11-01', expiresOn: '2026-12-01' });
  ids.deleted = await insertAdInReview(t, { accountId: poster.accountId });
  await t.store.memberAds.markDeleted(ids.deleted, 1, at);
  ids.own = await insertAdInReview(t, { accountId: moderator.accountId });
});

const ad =
  (key: keyof typeof ids, action = 'reject') =>
  () =>
    `/api/moderate/ads/${ids[key]}/${action}`;
const good = { revision: 1, reason: 'spam' };

type Case = [
  name: string,
  path: () => string,
  body: Record<string, unknown>,
  status: number,
  error: string | RegExp,
];

const CASES: Case[] = [
  [
    'revision missing',
    ad('review'),
    { reason: 'spam' },
    400,
    /revision of the ad you saw is missing/,
  ],
  [
    'revision not a number',
    ad('review'),
    { ...good, revision: 'abc' },
    400,
    'The revision must be a whole number.',
  ],
  [
    'revision a fraction',
    ad('review'),
    { ...good, revision: 1.5 },
    400,
    'The revision must be a whole number.',
  ],
  [
    'revision a boolean',
    ad('review'),
    { ...good, revision: true },
    400,
    'The revision must be a whole number.',
  ],
  ['reason missing', ad('review'), { revision: 1 }, 400, 'Choose a reason.'],
  ['reason empty', ad('review'), { revision: 1, reason: '' }, 400, 'Choose a reason.'],
  [
    'reason unknown',
    ad('review'),
    { ...good, reason: 'ugly' },
    400,
    /^Unknown reason\. Choose one of: commercial, under-18/,
  ],
  ['reason a number', ad('review'), { ...good, reason: 3 }, 400, /^Unknown reason/],
  [
    'note too long',
    ad('review'),
    { ...good, note: 'n'.repeat(501) },
    400,
    'The note must be at most 500 characters (got 501).',
  ],
  ['note not text', ad('review'), { ...good, note: ['a'] }, 400, 'The note must be text.'],
  [
    '"Other" without a note',
    ad('review'),
    { revision: 1, reason: 'other' },
    400,
    'Say in the note what is wrong when the reason is "Other".',
  ],
  [
    'an unexpected field',
    ad('review'),
    { ...good, status: 'live' },
    400,
    'Unexpected field: status.',
  ],
  ['approve with a reason field', ad('review', 'approve'), good, 400, 'Unexpected field: reason.'],
  [
    'an unknown ad id',
    () => moderateAdApiPath(999_999_999, 'approve'),
    { revision: 1 },
    404,
    'There is no member ad 999999999.',
  ],
  [
    'an ad id that is not a number',
    () => '/api/moderate/ads/abc/approve',
    { revision: 1 },
    404,
    'There is no member ad abc.',
  ],
  [
    'a huge ad id',
    () => `/api/moderate/ads/${'9'.repeat(40)}/approve`,
    { revision: 1 },
    404,
    /^There is no member ad 9+\.$/,
  ],
  [
    'an ad already rejected',
    ad('rejected', 'approve'),
    { revision: 2 },
    409,
    'Ad 100000002 is not waiting for review.',
  ],
  [
    'a live ad without an edit',
    ad('live', 'approve'),
    { revision: 2 },
    409,
    /is not waiting for review/,
  ],
  [
    'an ad its member deleted',
    ad('deleted', 'approve'),
    { revision: 2 },
    409,
    'The member deleted this ad: there is nothing to do.',
  ],
  [
    'an ad in review, to remove',
    ad('review', 'remove'),
    good,
    409,
    /changed since you opened the queue/,
  ],
  [
    'a stale revision',
    ad('review', 'approve'),
    { revision: 7 },
    409,
    /changed since you opened the queue/,
  ],
  [
    'the moderator\u2019s own ad',
    ad('own', 'approve'),
    { revision: 1 },
    403,
    'This is your own ad: another moderator must review it.',
  ],
  [
    'ban: an unknown account',
    () => '/api/moderate/accounts/999999/ban',
    { reason: 'spam' },
    404,
    'There is no account 999999.',
  ],
  [
    'ban: an account id that is not a number',
    () => '/api/moderate/accounts/x1/ban',
    { reason: 'spam' },
    404,
    'There is no account x1.',
  ],
  [
    'ban: a moderator',
    () => banAccountApiPath(otherModerator.accountId),
    { reason: 'spam' },
    403,
    /is a moderator\. An operator must take the role away first/,
  ],
  ['ban: without a reason', () => banAccountApiPath(poster.accountId), {}, 400, 'Choose a reason.'],
  [
    'ban: with a revision',
    () => banAccountApiPath(poster.accountId),
    good,
    400,
    'Unexpected field: revision.',
  ],
];

const snapshot = async () => ({
  ads: await Promise.all(Object.values(ids).map((id) => storedAd(t.sql, id))),
  log: (await logRows(t.sql)).length,
  banned: await storedRows(t, 'SELECT id FROM accounts WHERE banned_at IS NOT NULL'),
});

describe('as JSON', () => {
  test.each(CASES)(
    '%s: a 4xx and the message, nothing changed',
    async (_name, path, body, status, error) => {
      const before = await snapshot();
      const response = await postModerationJson(t.app, path(), body, moderator.session);
      expect(response.status).toBe(status);
      const answer = (await response.json()) as { error: string };
      if (typeof error === 'string') expect(answer.error).toBe(error);
      else expect(answer.error).toMatch(error);
      expect(await snapshot()).toEqual(before);
    },
  );

  test('not JSON, or not an object: 400', async () => {
    for (const body of ['{', '[1]', '"text"']) {
      const response = await postModerationJson(t.app, ad('review')(), body, moderator.session);
      expect(response.status).toBe(400);
    }
  });

  test('another content type: 415', async () => {
    const response = await t.app.request(`${ORIGIN}${ad('review', 'approve')()}`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml', ...cookieHeader(moderator.session) },
      body: '<revision>1</revision>',
    });
    expect(response.status).toBe(415);
  });

  test('a body over the API limit: 413', async () => {
    const response = await postModerationJson(
      t.app,
      ad('review')(),
      { ...good, note: 'n'.repeat(20_000) },
      moderator.session,
    );
    expect(response.status).toBe(413);
  });
});

describe('as a plain form post', () => {
  const asForm = (body: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(body).map(([key, value]) => [key, String(value)]));
  const formCases = CASES.filter(([name]) => !/a boolean|not text|a number$/.test(name));

  test.each(formCases)(
    '%s: the queue page with the message',
    async (_name, path, body, status, error) => {
      const before = await snapshot();
      const response = await postModerationForm(t.app, path(), asForm(body), moderator.session);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await response.text();
      expect(html).toContain('<h1>Moderation queue</h1>');
      const banner = bannerOf(html);
      if (typeof error === 'string') expect(banner).toBe(error);
      else expect(banner).toMatch(error);
      expect(await snapshot()).toEqual(before);
    },
  );

  test('what was typed comes back in the refused ad’s form', async () => {
    const response = await postModerationForm(
      t.app,
      ad('review')(),
      { revision: '1', reason: 'other', note: 'n'.repeat(501) },
      moderator.session,
    );
    const html = await response.text();
    const item = html.slice(html.indexOf(`id="ad-${ids.review}"`));
    expect(item).toContain('<option value="other" selected="">Other</option>');
    expect(item).toContain(`>${'n'.repeat(501)}</textarea>`);
  });

  test('a refused ban shows its confirmation again with the message', async () => {
    const response = await postModerationForm(
      t.app,
      banAccountApiPath(poster.accountId),
      { reason: 'other' },
      moderator.session,
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(`Ban ${poster.email}?`);
    expect(bannerOf(html)).toBe('Say in the note what is wrong when the reason is "Other".');
  });

  test('a body over the API limit: the queue page with the message (413)', async () => {
    const response = await postModerationForm(
      t.app,
      ad('review')(),
      { revision: '1', reason: 'spam', note: 'n'.repeat(20_000) },
      moderator.session,
    );
    expect(response.status).toBe(413);
    expect(bannerOf(await response.text())).toBe('The request body is too large (16 KB at most).');
  });
});
