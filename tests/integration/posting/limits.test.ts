// The posting limits (docs/product.md section 6): at most 3 ads in review or live per member, at most
// 1 new ad per city in 24 hours; each a clear message on the form, checked and stored in one
// unit of work holding the member's lock, so that two posts racing for the last slot, or for one
// city, store exactly one ad, even through two server instances on one PostgreSQL.
import { describe, expect, test } from 'vitest';
import { bannerOf, testAppOnFixtureContent } from '../../helpers/pages.ts';
import { openTestApp, type TestApp } from '../../helpers/api.ts';
import { onPostgres } from '../../helpers/test-store.ts';
import {
  dayFromToday,
  makeMember,
  moveAd,
  storedAds,
  submit,
  validAd,
} from '../../helpers/posting.ts';
import { adsApiPath } from '../../../core/paths.ts';
import { clockFrom, DAY } from '../../helpers/clock.ts';

const t = testAppOnFixtureContent();

/**
 * The posting form as a refusal gives it back: every value the member typed is there again (the
 * store's refusals are thrown from its unit of work, past the form's own checks).
 */
function expectTypedValues(html: string, ad: Record<string, string>) {
  expect(html).toContain(`<option value="${ad.state}" selected="">`);
  expect(html).toContain(`name="city" value="${ad.city}"`);
  expect(html).toContain(`name="age" value="${ad.age}"`);
  expect(html).toContain(`<option value="${ad.seeks}" selected="">`);
  expect(html).toContain(`name="title" value="${ad.title}"`);
  expect(html).toContain(`aria-describedby="ad-description-hint">${ad.description}</textarea>`);
}

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
      expect((await submit(t, adsApiPath(), validAd({ city }), member.session)).status).toBe(303);
    const fourth = validAd({ city: CITIES[3], age: '41', seeks: 'm4m', title: 'A fourth one' });
    const response = await submit(t, adsApiPath(), fourth, member.session);
    expect(response.status).toBe(409);
    const html = await response.text();
    expect(bannerOf(html)).toBe(ACTIVE_LIMIT);
    expectTypedValues(html, fourth);
    expect(await storedAds(t, member.accountId)).toHaveLength(3);
  });

  test('as JSON: 409 with the message', async () => {
    const member = await makeMember(t);
    for (const city of CITIES.slice(0, 3))
      await submit(t, adsApiPath(), validAd({ city }), member.session, 'json');
    const response = await submit(
      t,
      adsApiPath(),
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
      await submit(t, adsApiPath(), validAd({ city }), member.session);
    const [first, second, third] = await storedAds(t, member.accountId);
    await moveAd(t, first!.id, { status: 'rejected', reason: 'contact' });
    await moveAd(t, second!.id, { status: 'live', expiresOn: dayFromToday(0) });
    await moveAd(t, third!.id, { status: 'live', expiresOn: dayFromToday(5) });
    // One live (not expired) ad counts: two more fit.
    expect(
      (await submit(t, adsApiPath(), validAd({ city: CITIES[3] }), member.session)).status,
    ).toBe(303);
    expect(
      (await submit(t, adsApiPath(), validAd({ city: CITIES[4] }), member.session)).status,
    ).toBe(303);
    expect(
      (
        await submit(
          t,
          adsApiPath(),
          validAd({ city: CITIES[0], state: 'California' }),
          member.session,
        )
      ).status,
    ).toBe(409);
  });

  test('the 3rd and 4th ad posted at the same moment, through two instances: one stored, one refused, round after round', async () => {
    // On PostgreSQL a second app on the same schema, as a second server instance; on SQLite, the
    // embedded store of one instance, the same app twice.
    const other = await otherInstance();
    try {
      for (let round = 0; round < 8; round += 1) {
        const member = await makeMember(t);
        for (const city of CITIES.slice(0, 2))
          await submit(t, adsApiPath(), validAd({ city }), member.session, 'json');
        const responses = await Promise.all([
          submit(t, adsApiPath(), validAd({ city: CITIES[2] }), member.session, 'json'),
          submit(other, adsApiPath(), validAd({ city: CITIES[3] }), member.session, 'json'),
        ]);
        expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
        const refused = responses.find((response) => response.status === 409)!;
        expect(await refused.json()).toEqual({ error: ACTIVE_LIMIT });
        expect(await storedAds(t, member.accountId)).toHaveLength(3);
      }
    } finally {
      if (other !== t) await other.close();
    }
  });
});

/** Another instance of the server on the same store (PostgreSQL), or this one (SQLite). */
const otherInstance = async (): Promise<TestApp> => (onPostgres() ? openTestApp(t.dir) : t);

describe('1 new ad per city in 24 hours', () => {
  test('a second ad in the same city is refused, saying from when; another city is fine', async () => {
    const member = await makeMember(t);
    expect((await submit(t, adsApiPath(), validAd(), member.session)).status).toBe(303);
    const [first] = await storedAds(t, member.accountId);
    // Deleting the first does not reopen the city.
    await moveAd(t, first!.id, { status: 'deleted' });
    const again = validAd({ title: 'Another try', seeks: 'w4w' });
    const response = await submit(t, adsApiPath(), again, member.session);
    expect(response.status).toBe(429);
    const nextAt = new Date(Date.parse(first!.created_at) + 24 * 3_600_000).toISOString();
    const html = await response.text();
    expectTypedValues(html, again);
    expect(bannerOf(html)).toBe(
      `You posted an ad in Los Angeles in the last 24 hours. You can post another ad there from ${nextAt.slice(0, 16).replace('T', ' ')} UTC.`,
    );
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    expect(
      (await submit(t, adsApiPath(), validAd({ city: 'San Diego' }), member.session)).status,
    ).toBe(303);
    expect(await storedAds(t, member.accountId)).toHaveLength(2);
  });

  test('after 24 hours the city is open again', async () => {
    const clock = clockFrom();
    const member = await makeMember(t);
    expect((await submit(t, adsApiPath(), validAd(), member.session)).status).toBe(303);
    clock.at(DAY - 1000);
    expect((await submit(t, adsApiPath(), validAd(), member.session)).status).toBe(429);
    clock.at(DAY + 1000);
    expect((await submit(t, adsApiPath(), validAd(), member.session)).status).toBe(303);
  });

  test('two ads in one city at the same moment, through two instances: one stored, one refused', async () => {
    const other = await otherInstance();
    try {
      const member = await makeMember(t);
      const responses = await Promise.all(
        [t, other].map((app, index) =>
          submit(app, adsApiPath(), validAd({ title: `At once ${index}` }), member.session, 'json'),
        ),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([201, 429]);
      expect(await storedAds(t, member.accountId)).toHaveLength(1);
    } finally {
      if (other !== t) await other.close();
    }
  });

  test('another member may post in the same city at once', async () => {
    const one = await makeMember(t);
    const two = await makeMember(t);
    expect((await submit(t, adsApiPath(), validAd(), one.session)).status).toBe(303);
    expect((await submit(t, adsApiPath(), validAd(), two.session)).status).toBe(303);
  });
});
