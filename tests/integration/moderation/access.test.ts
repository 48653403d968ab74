// Moderation is invisible to anyone but a moderator (docs/product.md section 6): every /moderate page
// answers as a path that does not exist (the not-found screen), and every moderation API route as
// an unknown API path, byte for byte, to visitors and to members; nothing changes. A moderator sees
// the pages; the role taken away, they are hidden again at once.
import { beforeAll, describe, expect, test } from 'vitest';
import { makeModerator, moderatorCommand } from '../../../server/moderation/moderator-command.ts';
import { FORM_TYPE, JSON_TYPE, ORIGIN } from '../../helpers/api.ts';
import {
  getPage,
  insertAdInReview,
  logRows,
  signUpMember,
  storedAd,
  type TestMember,
} from '../../helpers/moderation.ts';
import { testAppOnFixtureContent } from '../../helpers/pages.ts';
import {
  banAccountApiPath,
  photoSettingsApiPath,
  markShieldDecisionMistakenApiPath,
  moderateAdApiPath,
  moderatePath,
  moderationLogPath,
} from '../../../core/paths.ts';

const t = testAppOnFixtureContent();
let member: TestMember;
let poster: TestMember;
let adId: number;
beforeAll(async () => {
  member = await signUpMember(t.app, t.store, 'plain');
  poster = await signUpMember(t.app, t.store, 'poster');
  adId = await insertAdInReview(t, { accountId: poster.accountId });
});

const PAGES = [
  moderatePath(),
  '/moderate/',
  moderationLogPath(),
  '/moderate/log?page=2',
  '/moderate?ban=1',
  '/moderate?done=approved&ad=100000001',
  '/moderate/shield',
  '/moderate/shield?before=10',
];

const routes = () => [
  moderateAdApiPath(adId, 'approve'),
  moderateAdApiPath(adId, 'reject'),
  moderateAdApiPath(adId, 'remove'),
  banAccountApiPath(poster.accountId),
  '/api/moderate/photos/1/reveal',
  photoSettingsApiPath(),
  markShieldDecisionMistakenApiPath(1),
];

const BODIES = {
  json: {
    type: JSON_TYPE,
    body: JSON.stringify({ revision: 1, reason: 'spam', note: 'x' }),
  },
  form: {
    type: FORM_TYPE,
    body: new URLSearchParams({ revision: '1', reason: 'spam', note: 'x' }).toString(),
  },
};

async function answer(path: string, init: RequestInit = {}) {
  const response = await t.app.request(`${ORIGIN}${path}`, init);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: await response.text(),
  };
}

const who = () =>
  [
    ['a visitor', undefined],
    ['a member', member.session],
  ] as const;

describe.each(['a visitor', 'a member'])('to %s', (label) => {
  const session = () => who().find(([name]) => name === label)![1];
  const headers = (): Record<string, string> => {
    const token = session();
    return token ? { cookie: `lb_session=${token}` } : {};
  };

  test('every moderation page is the not-found screen of a path that does not exist', async () => {
    const missing = await answer('/no-such-page', { headers: headers() });
    expect(missing.status).toBe(404);
    for (const path of PAGES) {
      const found = await answer(path, { headers: headers() });
      expect({ path, ...found }).toEqual({ path, ...missing });
      const head = await t.app.request(`${ORIGIN}${path}`, { method: 'HEAD', headers: headers() });
      expect(head.status).toBe(404);
    }
  });

  test('every moderation API route is an unknown API path, for JSON and forms, and changes nothing', async () => {
    const before = await storedAd(t.sql, adId);
    const logged = (await logRows(t.sql)).length;
    for (const kind of ['json', 'form'] as const) {
      const init = (path: string) => ({
        method: 'POST',
        headers: { 'content-type': BODIES[kind].type, origin: ORIGIN, ...headers() },
        body: BODIES[kind].body,
      });
      const unknown = await answer('/api/moderate/ads/1/no-such-action', init('x'));
      expect(unknown.status).toBe(404);
      expect(JSON.parse(unknown.body)).toEqual({ error: 'There is no such API endpoint.' });
      for (const path of routes()) {
        expect({ path, ...(await answer(path, init(path))) }).toEqual({ path, ...unknown });
        const get = await answer(path, { headers: headers() });
        expect(get.status).toBe(404);
      }
    }
    // From another site too: refused as any API post is, never with the queue page.
    const crossSite = await answer(routes()[0]!, {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE, origin: 'https://evil.example', ...headers() },
      body: BODIES.form.body,
    });
    const crossSiteUnknown = await answer('/api/no-such-endpoint', {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE, origin: 'https://evil.example', ...headers() },
      body: BODIES.form.body,
    });
    expect(crossSite).toEqual(crossSiteUnknown);
    expect(await storedAd(t.sql, adId)).toEqual(before);
    expect(await logRows(t.sql)).toHaveLength(logged);
    const account = (await t.store.accounts.findById(poster.accountId))!;
    expect(account.bannedAt).toBeNull();
  });
});

describe('the role', () => {
  test('shows the pages to a moderator, and hides them again as soon as it is taken away', async () => {
    const someone = await signUpMember(t.app, t.store, 'soon-moderator');
    expect((await getPage(t.app, moderatePath(), someone.session)).status).toBe(404);
    expect((await makeModerator(t.store, someone.email)).code).toBe(0);
    for (const path of [moderatePath(), moderationLogPath()]) {
      const response = await getPage(t.app, path, someone.session);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
    expect((await moderatorCommand(t.store, ['remove', someone.email])).code).toBe(0);
    expect((await getPage(t.app, moderatePath(), someone.session)).status).toBe(404);
    expect((await getPage(t.app, moderationLogPath(), someone.session)).status).toBe(404);
  });
});
