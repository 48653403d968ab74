// The member's own ads (docs/product.md section 6, "The member's account"): /account lists them newest
// first with their status; Edit, Delete and Renew are plain form posts that work only on the
// member's own ads (anyone else's id, or an unknown one, is a 404 that changes nothing and says
// nothing about the ad); each change bumps revision and updated_at; delete of a live ad and renew
// ask the publisher.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Publisher } from '../../../server/publishing/publisher.ts';
import { MODERATION_REASONS } from '../../../core/schemas/moderation-reasons.ts';
import { bannerOf, headingOf, testAppOnFixtureContent } from '../../helpers/pages.ts';
import {
  dayFromToday,
  fieldErrorOf,
  getPage,
  makeMember,
  editLiveAd,
  moveAd,
  type AdOutcome,
  storedAds,
  submit,
  validAd,
  type StoredAd,
  type TestMember,
} from '../../helpers/posting.ts';
import { textOf } from '../../helpers/html-text.ts';
import {
  accountPath,
  adsApiPath,
  deleteAdApiPath,
  editAdApiPath,
  renewAdApiPath,
} from '../../../core/paths.ts';
import { clockFrom } from '../../helpers/clock.ts';

/** The reasons the app asked to publish for, in order. */
const published: string[] = [];
const publisher: Publisher = {
  publish(reason) {
    published.push(reason);
    return Promise.resolve({ ok: true });
  },
};

const t = testAppOnFixtureContent({ publisher });

const CITIES = ['Los Angeles', 'San Diego', 'San Jose'] as const;

/** A member with one ad in review (in the given city), and that ad's row. */
async function memberWithAd(city: string = CITIES[0]): Promise<[TestMember, StoredAd]> {
  const member = await makeMember(t);
  expect((await submit(t, adsApiPath(), validAd({ city }), member.session)).status).toBe(303);
  return [member, (await storedAds(t, member.accountId)).at(-1)!];
}

const rowOf = async (id: number) => (await storedAds(t)).find((ad) => ad.id === id)!;

/** The edit form of an ad, posted by `member`. */
const editAs = (member: TestMember, adId: number, fields: Record<string, string>) =>
  submit(t, editAdApiPath(adId), fields, member.session);

describe('/account lists my ads', () => {
  test('newest first, each with its status and what it needs', async () => {
    // One posted a minute after the other, so that newest first is well defined.
    const clock = clockFrom(Date.now() - 10 * 60_000);
    const member = await makeMember(t);
    const titles = ['Removed one', 'Rejected one', 'Expired one', 'Live one', 'In review one'];
    for (const [index, title] of titles.entries()) {
      const city = ['Los Angeles', 'San Diego', 'San Jose', 'San Francisco', 'Fresno'][index]!;
      clock.at(index * 60_000);
      expect((await submit(t, adsApiPath(), validAd({ city, title }), member.session)).status).toBe(
        303,
      );
      const ad = (await storedAds(t, member.accountId)).at(-1)!;
      if (index >= 2) continue;
      // Only three may be in review at once: the first two leave review as a moderator would.
      await moveAd(
        t,
        ad.id,
        index === 0
          ? { status: 'removed' }
          : { status: 'rejected', reason: 'contact', note: 'Remove the phone number.' },
      );
    }
    const [removed, rejected, expired, live] = await storedAds(t, member.accountId);
    await moveAd(t, expired!.id, { status: 'live', expiresOn: dayFromToday(-2) });
    await moveAd(t, live!.id, { status: 'live', expiresOn: dayFromToday(12) });
    await editLiveAd(t, live!.id, {
      title: 'Live one, edited',
      age: 35,
      seeks: 'w4m',
      description: 'New words',
    });
    void removed;

    const response = await getPage(t, accountPath(), member.session);
    expect(response.status).toBe(200);
    const text = textOf(await response.text());
    const order = titles
      .slice()
      .reverse()
      .map((title) => text.indexOf(title));
    expect(order.every((at, index) => at > -1 && (index === 0 || at > order[index - 1]!))).toBe(
      true,
    );
    expect(text).toMatch(/In review one In review/);
    expect(text).toMatch(/Live one Live Your changes are in review/);
    expect(text).toContain(`Expires on ${formatLong(dayFromToday(12))}`);
    expect(text).toMatch(/Expired one Expired/);
    expect(text).toContain(`Expired on ${formatLong(dayFromToday(-2))}`);
    expect(text).toMatch(/Rejected one Rejected/);
    expect(text).toContain("Moderator's reason: Contact details in the ad");
    expect(text).toContain('Note: Remove the phone number.');
    expect(text).toMatch(/Removed one Removed/);
    const html = await (await getPage(t, accountPath(), member.session)).text();
    expect(html).toContain(`href="/city/California/San%20Francisco/ad/${live!.id}"`);
    expect(html).toContain(`action="${renewAdApiPath(expired!.id)}"`);
    expect(html).not.toContain(`action="${renewAdApiPath(live!.id)}"`);
    expect(html).toContain(`href="/account/ads/${rejected!.id}/edit"`);
    expect(html).not.toContain(`href="/account/ads/${removed!.id}/edit"`);
  });

  test("a live ad whose edit was not approved, and a removed ad, show the moderator's reason", async () => {
    const [member, live] = await memberWithAd(CITIES[0]);
    // Live, and its edit not approved (spam).
    await moveAd(t, live.id, { status: 'live', expiresOn: dayFromToday(9) });
    await editLiveAd(t, live.id, { title: 'An edit a moderator turns down' });
    const { revision } = (await t.store.memberAds.find(live.id))!;
    const why = { reason: MODERATION_REASONS.spam };
    const at = new Date().toISOString();
    expect(await t.store.moderation.rejectEdit(live.id, revision, why, at)).toBe(true);
    await submit(
      t,
      adsApiPath(),
      validAd({ city: CITIES[1], title: 'Taken down' }),
      member.session,
    );
    const removed = (await storedAds(t, member.accountId)).at(-1)!;
    await moveAd(t, removed.id, { status: 'removed', reason: 'commercial', note: 'Paid.' });
    const text = textOf(await (await getPage(t, accountPath(), member.session)).text());
    expect(text).toContain('Your last changes were not approved: Spam or duplicate.');
    expect(text).toContain(
      'A moderator removed this ad; it is no longer on the site. Reason: Commercial or paid content. Paid.',
    );
  });

  test('no ads yet: says so, with a way to post', async () => {
    const member = await makeMember(t);
    const html = await (await getPage(t, accountPath(), member.session)).text();
    expect(textOf(html)).toContain('You have no ads yet.');
    expect(html).toContain('href="/post"');
  });
});

describe('edit', () => {
  test('the edit page is the posting form, filled in; state and city cannot change', async () => {
    const [member, ad] = await memberWithAd();
    const response = await getPage(t, `/account/ads/${ad.id}/edit`, member.session);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(headingOf(html)).toBe('Edit your ad');
    expect(html).toContain(`action="${editAdApiPath(ad.id)}"`);
    expect(html).toContain('value="Coffee and a long walk by the sea"');
    expect(html).not.toContain('name="state"');
    expect(html).not.toContain('name="city"');
    expect(textOf(html)).toContain("The state and city of an ad can't be changed");
  });

  test('an ad in review takes the edit and stays in review; revision and updated_at move', async () => {
    const [member, ad] = await memberWithAd();
    const response = await editAs(member, ad.id, {
      age: '36',
      seeks: 'w4w',
      title: 'A new title',
      description: 'New text',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/account?done=edited');
    const after = await rowOf(ad.id);
    expect(after).toMatchObject({
      status: 'review',
      age: 36,
      seeks: 'w4w',
      title: 'A new title',
      revision: 2,
    });
    expect(after.updated_at > ad.updated_at).toBe(true);
    const page = await getPage(t, '/account?done=edited', member.session);
    expect(bannerOf(await page.text())).toBe('Your changes are saved. The ad is in review again.');
  });

  test('a rejected ad goes back to review, its reason cleared', async () => {
    const [member, ad] = await memberWithAd();
    await moveAd(t, ad.id, { status: 'rejected', reason: 'contact', note: 'x' });
    await editAs(member, ad.id, {
      age: '34',
      seeks: 'w4m',
      title: 'Fixed',
      description: 'Fixed text',
    });
    expect(await rowOf(ad.id)).toMatchObject({
      status: 'review',
      title: 'Fixed',
      rejected_reason: null,
      rejected_note: null,
    });
  });

  test('a live ad keeps its published text; the edit waits in pending_*', async () => {
    const [member, posted] = await memberWithAd();
    await moveAd(t, posted.id, { status: 'live', expiresOn: dayFromToday(20) });
    const ad = await rowOf(posted.id);
    const response = await editAs(member, ad.id, {
      age: '35',
      seeks: 'w4m',
      title: 'Edited title',
      description: 'Edited text',
    });
    expect(response.headers.get('location')).toBe('/account?done=edit-in-review');
    expect(await rowOf(ad.id)).toMatchObject({
      status: 'live',
      title: ad.title,
      description: ad.description,
      age: 34,
      pending_title: 'Edited title',
      pending_description: 'Edited text',
      pending_age: 35,
      pending_seeks: 'w4m',
      pending_marks: '[]',
      revision: ad.revision + 1,
    });
    // The edit page shows the waiting edit, and the account page both statuses.
    const edit = await (await getPage(t, `/account/ads/${ad.id}/edit`, member.session)).text();
    expect(edit).toContain('value="Edited title"');
    const account = textOf(await (await getPage(t, accountPath(), member.session)).text());
    expect(account).toContain('Live Your changes are in review');
  });

  test('field errors come back beside their fields on the edit page, typed text kept', async () => {
    const [member, ad] = await memberWithAd();
    const response = await editAs(member, ad.id, {
      age: '17',
      seeks: 'w4m',
      title: 'Kept title',
      description: '',
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(headingOf(html)).toBe('Edit your ad');
    expect(fieldErrorOf(html, 'age')).toBe('You must be 18 or over to post an ad.');
    expect(fieldErrorOf(html, 'description')).toBe('Write a description.');
    expect(html).toContain('value="Kept title"');
    expect(await rowOf(ad.id)).toEqual(ad);
  });

  test('state or city sent with an edit is refused: they cannot change', async () => {
    const [member, ad] = await memberWithAd();
    const response = await submit(
      t,
      editAdApiPath(ad.id),
      { age: '34', seeks: 'w4m', title: 'T', description: 'D', city: 'San Diego' },
      member.session,
      'json',
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'Unexpected field: city.' });
    expect(await rowOf(ad.id)).toEqual(ad);
  });

  test('a removed ad cannot be edited: 409 with the reason', async () => {
    const [member, ad] = await memberWithAd();
    await moveAd(t, ad.id, { status: 'removed' });
    const response = await editAs(member, ad.id, {
      age: '34',
      seeks: 'w4m',
      title: 'T',
      description: 'D',
    });
    expect(response.status).toBe(409);
    expect((await rowOf(ad.id)).title).toBe(ad.title);
  });
});

describe('an expired ad is renewed before it is edited', () => {
  const edit = { age: '35', seeks: 'w4m', title: 'Edited title', description: 'Edited text' };

  test('its edit page says so with Renew instead of the form; Renew leads back to the form', async () => {
    const [member, ad] = await memberWithAd();
    await moveAd(t, ad.id, { status: 'live', expiresOn: dayFromToday(-2) });
    const response = await getPage(t, `/account/ads/${ad.id}/edit`, member.session);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(headingOf(html)).toBe('Renew your ad first');
    expect(html).not.toContain(`action="${editAdApiPath(ad.id)}"`);
    expect(html).toContain(`action="${renewAdApiPath(ad.id)}"`);
    expect(html).toContain('name="then" value="edit"');
    expect(textOf(html)).toContain(
      `This ad expired on ${formatLong(dayFromToday(-2))}. Renew it before editing it`,
    );
    // The account page offers Renew, not Edit.
    const account = await (await getPage(t, accountPath(), member.session)).text();
    expect(account).toContain(`action="${renewAdApiPath(ad.id)}"`);
    expect(account).not.toContain(`href="/account/ads/${ad.id}/edit"`);

    // Renew from the edit page: back to it, with the form.
    const renewed = await submit(t, renewAdApiPath(ad.id), { then: 'edit' }, member.session);
    expect(renewed.status).toBe(303);
    expect(renewed.headers.get('location')).toBe(`/account/ads/${ad.id}/edit?done=renewed`);
    const back = await (
      await getPage(t, `/account/ads/${ad.id}/edit?done=renewed`, member.session)
    ).text();
    expect(headingOf(back)).toBe('Edit your ad');
    expect(bannerOf(back)).toBe(
      `Your ad is renewed and live until ${formatLong(dayFromToday(30))}. You can edit it now.`,
    );
    expect(back).toContain(`action="${editAdApiPath(ad.id)}"`);
    expect((await submit(t, editAdApiPath(ad.id), edit, member.session)).status).toBe(303);
    expect((await rowOf(ad.id)).pending_title).toBe('Edited title');
  });

  test('its edit is refused (409) as a form post: the page says to renew, nothing changes', async () => {
    const [member, ad] = await memberWithAd();
    await moveAd(t, ad.id, { status: 'live', expiresOn: dayFromToday(-5) });
    const before = await rowOf(ad.id);
    // Even with fields that would be refused: renewing comes first.
    const response = await editAs(member, ad.id, { ...edit, description: '' });
    expect(response.status).toBe(409);
    const html = await response.text();
    expect(headingOf(html)).toBe('Renew your ad first');
    expect(html).toContain(`action="${renewAdApiPath(ad.id)}"`);
    expect(textOf(html)).toContain('Renew it before editing it');
    expect(await rowOf(ad.id)).toEqual(before);
  });

  test('as JSON: 409 with the message; nothing changes', async () => {
    const [member, ad] = await memberWithAd();
    await moveAd(t, ad.id, { status: 'live', expiresOn: dayFromToday(0) });
    const before = await rowOf(ad.id);
    const response = await submit(t, editAdApiPath(ad.id), edit, member.session, 'json');
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      error: `This ad expired on ${formatLong(dayFromToday(0))}. Renew it before editing it: Renew puts it back on the site for 30 days, without a new review (the button is here and beside the ad on your account page). Then you can edit it.`,
    });
    expect(await rowOf(ad.id)).toEqual(before);
  });

  test('past the renewal window: neither Renew nor edit, post it again', async () => {
    const [member, ad] = await memberWithAd();
    await moveAd(t, ad.id, { status: 'live', expiresOn: dayFromToday(-31) });
    const html = await (await getPage(t, `/account/ads/${ad.id}/edit`, member.session)).text();
    expect(headingOf(html)).toBe('Renew your ad first');
    expect(html).not.toContain(`action="${renewAdApiPath(ad.id)}"`);
    expect(html).toContain('href="/post"');
    expect(textOf(html)).toContain('more than 30 days ago, so it can no longer be renewed');
    const response = await submit(t, editAdApiPath(ad.id), edit, member.session, 'json');
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: string }).error).toContain(
      'Post it again as a new ad',
    );
  });
});

describe('delete', () => {
  test('marks the ad deleted, gone from the list; a live ad asks the publisher', async () => {
    const [member, posted] = await memberWithAd();
    await moveAd(t, posted.id, { status: 'live', expiresOn: dayFromToday(20) });
    const ad = await rowOf(posted.id);
    const before = published.length;
    const response = await submit(t, deleteAdApiPath(ad.id), {}, member.session);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/account?done=deleted');
    expect(await rowOf(ad.id)).toMatchObject({ status: 'deleted', revision: ad.revision + 1 });
    expect(published.slice(before)).toEqual([`deleted ad ${ad.id}`]);
    const html = await (await getPage(t, '/account?done=deleted', member.session)).text();
    expect(html).not.toContain(ad.title);
    expect(bannerOf(html)).toBe(
      'Your ad is deleted. If it was live, it leaves the site within a few moments.',
    );
  });

  test('an ad in review is deleted without publishing', async () => {
    const [member, ad] = await memberWithAd();
    const before = published.length;
    await submit(t, deleteAdApiPath(ad.id), {}, member.session);
    expect((await rowOf(ad.id)).status).toBe('deleted');
    expect(published.length).toBe(before);
  });
});

describe('renew', () => {
  const cases: [string, AdOutcome, boolean][] = [
    ['live, 2 days left', { status: 'live', expiresOn: dayFromToday(2) }, true],
    ['live, 3 days left', { status: 'live', expiresOn: dayFromToday(3) }, true],
    ['live, 4 days left', { status: 'live', expiresOn: dayFromToday(4) }, false],
    ['expired today', { status: 'live', expiresOn: dayFromToday(0) }, true],
    ['expired 30 days ago', { status: 'live', expiresOn: dayFromToday(-30) }, true],
    ['expired 31 days ago', { status: 'live', expiresOn: dayFromToday(-31) }, false],
    ['in review', { status: 'review' }, false],
    ['rejected', { status: 'rejected' }, false],
    ['removed', { status: 'removed', expiresOn: dayFromToday(1) }, false],
  ];
  test.each(cases)('%s: renewed %s', async (_label, outcome, renews) => {
    const [member, ad] = await memberWithAd();
    await moveAd(t, ad.id, { ...outcome, reminded: true });
    const before = await rowOf(ad.id);
    const count = published.length;
    const response = await submit(t, renewAdApiPath(ad.id), {}, member.session);
    if (renews) {
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/account?done=renewed');
      expect(await rowOf(ad.id)).toMatchObject({
        status: 'live',
        expires_on: dayFromToday(30),
        reminded_at: null,
        revision: before.revision + 1,
      });
      expect(published.slice(count)).toEqual([`renewed ad ${ad.id}`]);
    } else {
      expect(response.status).toBe(409);
      const html = await response.text();
      expect(headingOf(html)).toBe('Your account');
      expect(bannerOf(html)).toMatch(/renewed/);
      expect(await rowOf(ad.id)).toEqual(before);
      expect(published.length).toBe(count);
    }
  });

  test('says when a live ad can be renewed', async () => {
    const [member, ad] = await memberWithAd();
    await moveAd(t, ad.id, { status: 'live', expiresOn: dayFromToday(10) });
    const response = await submit(t, renewAdApiPath(ad.id), {}, member.session, 'json');
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      error: `This ad can be renewed from ${dayFromToday(7)}, 3 days before it expires.`,
    });
  });
});

describe("someone else's ad, or an unknown one", () => {
  let owner: TestMember;
  let ad: StoredAd;
  let stranger: TestMember;
  beforeAll(async () => {
    [owner, ad] = await memberWithAd(CITIES[1]);
    await moveAd(t, ad.id, { status: 'live', expiresOn: dayFromToday(1) });
    ad = await rowOf(ad.id);
    stranger = await makeMember(t);
  });

  const actions: [string, Record<string, string>][] = [
    ['edit', { age: '30', seeks: 'm4w', title: 'Mine now', description: 'Taken over' }],
    ['delete', {}],
    ['renew', {}],
  ];

  test.each(actions)('%s: 404 with a message, the ad unchanged', async (action, fields) => {
    for (const id of [ad.id, 999_999_999, 12]) {
      const response = await submit(t, `/api/ads/${id}/${action}`, fields, stranger.session);
      expect(response.status).toBe(404);
      const html = await response.text();
      expect(bannerOf(html)).toBe("We couldn't find that ad among yours.");
      // The answer is the same whether or not the ad exists, and names nothing about it.
      expect(html).not.toContain(ad.title);
      const json = await submit(t, `/api/ads/${id}/${action}`, fields, stranger.session, 'json');
      expect(json.status).toBe(404);
      expect(await json.json()).toEqual({ error: "We couldn't find that ad among yours." });
    }
    expect(await rowOf(ad.id)).toEqual(ad);
    void owner;
  });

  test('the edit page of someone else’s ad is a 404 that names nothing', async () => {
    for (const id of [String(ad.id), '999999999', 'abc']) {
      const response = await getPage(t, `/account/ads/${id}/edit`, stranger.session);
      expect(response.status).toBe(id === 'abc' ? 404 : 404);
      const html = await response.text();
      expect(html).not.toContain(ad.title);
      if (id !== 'abc') expect(headingOf(html)).toBe('Ad not found');
    }
  });

  test('a malformed id is a 404 too', async () => {
    const response = await submit(t, '/api/ads/1e3/delete', {}, stranger.session, 'json');
    expect(response.status).toBe(404);
  });

  test('signed out: sent to sign in, nothing changed', async () => {
    const response = await submit(t, deleteAdApiPath(ad.id), {});
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/signin?next=%2Faccount');
    expect(await rowOf(ad.id)).toEqual(ad);
  });
});

function formatLong(day: string) {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}
