// The posting limits (docs/product.md section 6): at most 3 ads in review or live per member, at most
// 1 new ad per city in 24 hours; each a clear message on the form, checked and stored in one
// transaction so that two posts racing for the last slot store exactly one ad.
import { describe, expect, test } from 'vitest';
import { bannerOf, testAppOnFixtureContent } from '../../helpers/pages.ts';
import { raceProcess } from '../../helpers/race-processes.ts';
import {
  dayFromToday,
  makeMember,
  setAd,
  storedAds,
  submit,
  validAd,
  type TestMember,
} from '../../helpers/posting.ts';

process.env.PASSWORD_HASH_COST = String(2 ** 14);

const t = testAppOnFixtureContent();

const CITIES: [string, string, string, string, string] = [
  'Los Angeles',
  'San Diego',
  'San Jose',
  'San Francisco',
  'Fresno',
];
const ACTIVE_LIMIT =
  'You already have 3 ads in review or live, the most one member can have at once. Delete one, or wait until one expires, to post another.';

describe('3 ads in review or live', () => {
  test('the fourth is refused with the form and a clear message; nothing stored', async () => {
    const member = await makeMember(t);
    for (const city of CITIES.slice(0, 3))
      expect((await submit(t, '/api/ads', validAd({ city }), member.session)).status).toBe(303);
    const response = await submit(t, '/api/ads', validAd({ city: CITIES[3] }), member.session);
    expect(response.status).toBe(409);
    const html = await response.text();
    expect(bannerOf(html)).toBe(ACTIVE_LIMIT);
    expect(html).toContain('value="Coffee and a long walk by the sea"');
    expect(storedAds(t.dbPath, member.accountId)).toHaveLength(3);
  });

  test('as JSON: 409 with the message', async () => {
    const member = await makeMember(t);
    for (const city of CITIES.slice(0, 3))
      await submit(t, '/api/ads', validAd({ city }), member.session, 'json');
    const response = await submit(
      t,
      '/api/ads',
      validAd({ city: CITIES[3] }),
      member.session,
      'json',
    );
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: ACTIVE_LIMIT });
  });

  test('rejected, deleted, removed and expired ads do not count; live ones do', async () => {
    const member = await makeMember(t);
    for (const city of CITIES.slice(0, 3))
      await submit(t, '/api/ads', validAd({ city }), member.session);
    const [first, second, third] = storedAds(t.dbPath, member.accountId);
    setAd(t, first!.id, { status: 'rejected', rejected_reason: 'contact' });
    setAd(t, second!.id, { status: 'live', expires_on: dayFromToday(0) });
    setAd(t, third!.id, { status: 'live', expires_on: dayFromToday(5) });
    // One live (not expired) ad counts: two more fit.
    expect((await submit(t, '/api/ads', validAd({ city: CITIES[3] }), member.session)).status).toBe(
      303,
    );
    expect((await submit(t, '/api/ads', validAd({ city: CITIES[4] }), member.session)).status).toBe(
      303,
    );
    expect(
      (
        await submit(
          t,
          '/api/ads',
          validAd({ city: CITIES[0], state: 'California' }),
          member.session,
        )
      ).status,
    ).toBe(409);
  });

  test('two processes racing for the last slot, round after round: exactly one ad is stored each time', async () => {
    const rounds = 12;
    const members: TestMember[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const member = await makeMember(t);
      for (const city of CITIES.slice(0, 2))
        await submit(t, '/api/ads', validAd({ city }), member.session);
      members.push(member);
    }
    const startAt = Date.now() + 1500;
    const racer = (city: string) =>
      raceProcess('./post-race-process.ts', [
        t.dbPath,
        city,
        String(startAt),
        '100',
        ...members.map((m) => String(m.accountId)),
      ]);
    const [one, two] = await Promise.all([racer(CITIES[2]), racer(CITIES[3])]);
    expect(one).toHaveLength(rounds);
    for (let round = 0; round < rounds; round += 1) {
      const outcomes = [one[round], two[round]] as { ok?: boolean; refused?: string }[];
      expect(outcomes.filter((outcome) => outcome.ok === true)).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome.refused === 'active-limit')).toHaveLength(1);
      expect(storedAds(t.dbPath, members[round]!.accountId)).toHaveLength(3);
    }
  });
});

describe('1 new ad per city in 24 hours', () => {
  test('a second ad in the same city is refused, saying from when; another city is fine', async () => {
    const member = await makeMember(t);
    expect((await submit(t, '/api/ads', validAd(), member.session)).status).toBe(303);
    const [first] = storedAds(t.dbPath, member.accountId);
    // Deleting the first does not reopen the city.
    setAd(t, first!.id, { status: 'deleted' });
    const response = await submit(t, '/api/ads', validAd({ title: 'Another try' }), member.session);
    expect(response.status).toBe(429);
    const nextAt = new Date(Date.parse(first!.created_at) + 24 * 3_600_000).toISOString();
    expect(bannerOf(await response.text())).toBe(
      `You posted an ad in Los Angeles in the last 24 hours. You can post another ad there from ${nextAt.slice(0, 16).replace('T', ' ')} UTC.`,
    );
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    expect(
      (await submit(t, '/api/ads', validAd({ city: 'San Diego' }), member.session)).status,
    ).toBe(303);
    expect(storedAds(t.dbPath, member.accountId)).toHaveLength(2);
  });

  test('after 24 hours the city is open again', async () => {
    const member = await makeMember(t);
    await submit(t, '/api/ads', validAd(), member.session);
    const [first] = storedAds(t.dbPath, member.accountId);
    setAd(t, first!.id, {
      created_at: new Date(Date.now() - 24 * 3_600_000 - 1000).toISOString(),
    });
    expect((await submit(t, '/api/ads', validAd(), member.session)).status).toBe(303);
  });

  test('another member may post in the same city at once', async () => {
    const one = await makeMember(t);
    const two = await makeMember(t);
    expect((await submit(t, '/api/ads', validAd(), one.session)).status).toBe(303);
    expect((await submit(t, '/api/ads', validAd(), two.session)).status).toBe(303);
  });
});
