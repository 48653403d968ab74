// Posting and the member's ads on the production build, in Chromium with JavaScript (checked in
// the browser with the server's schema, sent without a page load) and without it (plain form
// posts, the server's page with each message beside its field); the account page's Edit, Renew and
// Delete; member actions that lead where they say for a signed-in member; screenshots of the new
// pages at a phone's width and a desktop's, and axe-core on them.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import {
  accountPath,
  adsApiPath,
  cityPath,
  newMessagePath,
  postInReviewPath,
  postPath,
  signupApiPath,
} from '../../core/paths.ts';
import {
  gotoEnhanced,
  shownText,
  submitWithFetch,
  waitForEnhanced,
} from '../helpers/browser-waits.ts';
import { bothWays } from '../helpers/both-ways.ts';
import { heading, signUpAndVerify, uniqueEmail } from '../helpers/e2e-members.ts';
import { screenshotsAtWidths, seriousAxeViolations } from '../helpers/page-checks.ts';
import type { TestApp } from '../helpers/api.ts';
import { editLiveAd, moveAd } from '../helpers/posting.ts';
import { openSqliteTestStore } from '../helpers/test-store.ts';
import { baseUrl, builtAds, fetchPage, chromiumForTests } from './support.ts';
import { fillAdForm as fillAd } from '../helpers/ad-form.ts';

const SHOTS = process.env.POSTING_SCREENSHOTS_DIR ?? '/tmp/localboard-posting-screenshots';

const chromium = chromiumForTests();

const dayFromToday = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Signs up in the context (its cookies), verifies with the mailed link: a member who can post. */
const verifiedMember = (context: BrowserContext) =>
  signUpAndVerify(context, { url: baseUrl(), outboxDir: inject('outboxDir') }, 'poster', {
    throughApi: true,
  });

/** Posts an ad through the API as the context's member; its id. */
async function postAd(context: BrowserContext, city: string, title: string): Promise<number> {
  const response = await context.request.post(`${baseUrl()}${adsApiPath()}`, {
    data: {
      state: 'California',
      city,
      age: '36',
      seeks: 'm4w',
      title,
      description: 'Long walks, old films and a good bookshop.',
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** The shared server's store, for a moment: a moderator's decisions are made through it. */
async function onServerStore(work: (t: Pick<TestApp, 'store'>) => Promise<void>) {
  const { store } = openSqliteTestStore(inject('databasePath'));
  try {
    await work({ store });
  } finally {
    await store.close();
  }
}

async function storedAd(id: number) {
  const { store } = openSqliteTestStore(inject('databasePath'));
  try {
    return (await store.memberAds.find(id))!;
  } finally {
    await store.close();
  }
}

describe('/post in Chromium with JavaScript', () => {
  test('messages beside each field before anything is sent, then in review', async () => {
    const context = await chromium.browser.newContext();
    await verifiedMember(context);
    const page = await context.newPage();
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(adsApiPath()))
        sent.push(request.url());
    });
    await gotoEnhanced(page, `${baseUrl()}/post`);
    expect(await heading(page)).toBe('Post an ad');
    // The age comes from the date of birth given at sign-up.
    expect(await page.inputValue('#ad-age')).toBe(String(ageOf('1990-04-12')));

    await page.getByRole('button', { name: 'Submit for review' }).click();
    expect(await shownText(page.locator('#ad-state-error'))).toBe('Choose your state.');
    expect(await page.locator('#ad-city-error').textContent()).toBe('Enter your city.');
    expect(await page.locator('#ad-seeks-error').textContent()).toBe(
      'Choose who you are and who you are looking for.',
    );
    expect(await page.locator('#ad-title-error').textContent()).toBe('Give your ad a title.');
    expect(await page.locator('#ad-description-error').textContent()).toBe('Write a description.');
    expect(await page.locator('#ad-age-error').count()).toBe(0);
    expect(await page.getAttribute('#ad-title', 'aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('state');
    await screenshots(page, 'post-with-errors');

    // Choosing a state brings its cities as suggestions; a city not among them is named.
    await fillAd(page, { state: 'California', city: 'Los Angelos', age: '17', seeks: 'm4w' });
    // The state's cities arrive with /api/ads/cities: more than 100 of them once they are here.
    await page.locator('#ad-city-suggestions option').nth(100).waitFor({ state: 'attached' });
    expect(await page.locator('#ad-city-suggestions option').count()).toBeGreaterThan(100);
    await fillAd(page, { title: 'Coffee and a walk', description: 'Line one.\nLine two.' });
    await page.getByRole('button', { name: 'Submit for review' }).click();
    expect(await shownText(page.locator('#ad-age-error'))).toBe(
      'You must be 18 or over to post an ad.',
    );
    expect(await page.locator('#ad-title-error').count()).toBe(0);
    await fillAd(page, { age: '36' });
    await page.getByRole('button', { name: 'Submit for review' }).click();
    expect(await shownText(page.locator('#ad-city-error'))).toBe(
      'We don\'t list a city called "Los Angelos" in California. Choose one of the suggested cities, or the nearest one.',
    );
    expect(sent).toEqual([]);

    await fillAd(page, { city: 'Los Angeles' });
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.waitForURL(`${baseUrl()}/post/in-review`);
    expect(sent).toHaveLength(1);
    expect(await heading(page)).toBe('Your ad is in review');
    await screenshots(page, 'post-in-review');

    await page.getByRole('link', { name: 'See your ads' }).click();
    await page.waitForURL(`${baseUrl()}/account`);
    const ad = page.locator('.my-ad').first();
    expect(await ad.locator('h3').textContent()).toBe('Coffee and a walk');
    expect(await ad.locator('.ad-status').textContent()).toBe('In review');
    await context.close();
  });

  test("the server's refusals (a refused word) show beside their field, the page stays", async () => {
    const context = await chromium.browser.newContext();
    await verifiedMember(context);
    const page = await context.newPage();
    await gotoEnhanced(page, `${baseUrl()}/post`);
    await fillAd(page, {
      state: 'California',
      city: 'San Diego',
      seeks: 'w4m',
      title: 'Escort for the evening',
      description: 'Hello.',
    });
    await submitWithFetch(page.getByRole('button', { name: 'Submit for review' }), adsApiPath());
    expect(await shownText(page.locator('#ad-title-error'))).toContain(
      "“Escort” can't be used in an ad",
    );
    expect(page.url()).toBe(`${baseUrl()}/post`);
    expect(await page.getByRole('button', { name: 'Submit for review' }).isDisabled()).toBe(false);
    // What was typed is all still there.
    expect(await page.inputValue('#ad-title')).toBe('Escort for the evening');
    expect(await page.inputValue('#ad-description')).toBe('Hello.');
    expect(await page.inputValue('#ad-city')).toBe('San Diego');
    expect(await page.inputValue('#ad-seeks')).toBe('w4m');
    await context.close();
  });
});

describe('/post without JavaScript', () => {
  test('a plain form post: messages beside their fields, typed text kept, then in review', async () => {
    const context = await chromium.browser.newContext({ javaScriptEnabled: false });
    await verifiedMember(context);
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/post`);
    await fillAd(page, {
      state: 'California',
      city: 'San Jose',
      age: '17',
      seeks: 'w4w',
      title: 'Hiking partner wanted',
      description: 'Weekends in the hills.\nEarly starts.',
    });
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.waitForLoadState('load');
    expect(page.url()).toBe(`${baseUrl()}${adsApiPath()}`);
    expect(await page.locator('.banner--error').textContent()).toBe(
      'Please correct the fields marked below.',
    );
    expect(await page.locator('#ad-age-error').textContent()).toBe(
      'You must be 18 or over to post an ad.',
    );
    expect(await page.inputValue('#ad-title')).toBe('Hiking partner wanted');
    expect(await page.inputValue('#ad-description')).toBe('Weekends in the hills.\nEarly starts.');
    expect(await page.inputValue('#ad-state')).toBe('California');
    expect(await page.inputValue('#ad-seeks')).toBe('w4w');
    await screenshots(page, 'post-with-errors-no-js');

    await page.fill('#ad-age', '40');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.waitForURL(`${baseUrl()}/post/in-review`);
    expect(await heading(page)).toBe('Your ad is in review');

    // Another ad in San Jose the same day: refused by the posting limits (in the store's unit of
    // work), the form back with its message and everything typed.
    await page.goto(`${baseUrl()}/post`);
    await fillAd(page, {
      state: 'California',
      city: 'San Jose',
      age: '41',
      seeks: 'm4w',
      title: 'A second try',
      description: 'Still the hills.',
    });
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.waitForLoadState('load');
    expect(await page.locator('.banner--error').textContent()).toMatch(
      /^You posted an ad in San Jose in the last 24 hours\./,
    );
    expect(await page.inputValue('#ad-title')).toBe('A second try');
    expect(await page.inputValue('#ad-description')).toBe('Still the hills.');
    expect(await page.inputValue('#ad-age')).toBe('41');
    expect(await page.inputValue('#ad-seeks')).toBe('m4w');
    expect(await page.inputValue('#ad-city')).toBe('San Jose');
    await context.close();
  });

  test('a signed-out visitor reaching /post signs in and comes back', async () => {
    const context = await chromium.browser.newContext({ javaScriptEnabled: false });
    const email = await verifiedMember(context);
    await context.clearCookies();
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/post`);
    expect(page.url()).toBe(`${baseUrl()}/signin?next=%2Fpost`);
    await page.fill('#signin-email', email);
    await page.fill('#signin-password', 'a long enough password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${baseUrl()}/post`);
    expect(await heading(page)).toBe('Post an ad');
    await context.close();
  });

  test('an unverified member is told why, with the resend form', async () => {
    const context = await chromium.browser.newContext({ javaScriptEnabled: false });
    const signup = await context.request.post(`${baseUrl()}${signupApiPath()}`, {
      data: {
        email: uniqueEmail('unverified'),
        password: 'a long enough password',
        dateOfBirth: '1990-04-12',
      },
    });
    expect(signup.status()).toBe(201);
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/post`);
    expect(await heading(page)).toBe('Verify your email to post');
    await page.getByRole('button', { name: 'Resend the link' }).click();
    await page.waitForURL(`${baseUrl()}/account?sent=1`);
    await context.close();
  });
});

describe.each(bothWays('in Chromium'))('the account page’s ads %s', (_label, javaScriptEnabled) => {
  test('renew a live ad near its expiry, edit one in review, delete it', async () => {
    const context = await chromium.browser.newContext({ javaScriptEnabled });
    await verifiedMember(context);
    const live = await postAd(context, 'Los Angeles', 'Live and nearly expired');
    const inReview = await postAd(context, 'San Diego', 'Waiting for a moderator');
    await onServerStore((t) => moveAd(t, live, { status: 'live', expiresOn: dayFromToday(2) }));
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await gotoEnhanced(page, `${baseUrl()}/account`, javaScriptEnabled);
    const statusOf = (title: string) =>
      page.locator('.my-ad', { hasText: title }).locator('.ad-status').first().textContent();
    expect(await statusOf('Live and nearly expired')).toBe('Live');
    expect(await statusOf('Waiting for a moderator')).toBe('In review');

    await page.getByRole('button', { name: 'Renew “Live and nearly expired”' }).click();
    await page.waitForURL(`${baseUrl()}/account?done=renewed`);
    expect(await page.locator('.banner--info').textContent()).toBe('Your ad is renewed.');
    expect((await storedAd(live)).expiresOn).toBe(dayFromToday(30));
    expect(
      await page.getByRole('button', { name: 'Renew “Live and nearly expired”' }).count(),
    ).toBe(0);

    await page.getByRole('link', { name: 'Edit “Waiting for a moderator”' }).click();
    await page.waitForURL(`${baseUrl()}/account/ads/${inReview}/edit`);
    await waitForEnhanced(page, javaScriptEnabled);
    expect(await heading(page)).toBe('Edit your ad');
    expect(await page.inputValue('#ad-title')).toBe('Waiting for a moderator');
    await page.fill('#ad-age', '17');
    await page.getByRole('button', { name: 'Send changes for review' }).click();
    expect(await shownText(page.locator('#ad-age-error'))).toBe(
      'You must be 18 or over to post an ad.',
    );
    await page.fill('#ad-age', '37');
    await page.fill('#ad-title', 'Still waiting, now edited');
    await page.getByRole('button', { name: 'Send changes for review' }).click();
    await page.waitForURL(`${baseUrl()}/account?done=edited`);
    await waitForEnhanced(page, javaScriptEnabled);
    expect(await statusOf('Still waiting, now edited')).toBe('In review');
    expect((await storedAd(inReview)).title).toBe('Still waiting, now edited');

    await page.getByRole('button', { name: 'Delete “Still waiting, now edited”' }).click();
    await page.waitForURL(`${baseUrl()}/account?done=deleted`);
    expect(await page.locator('.my-ad', { hasText: 'Still waiting' }).count()).toBe(0);
    expect((await storedAd(inReview)).status).toBe('deleted');
    await context.close();
  });
});

describe('member actions for a signed-in member', () => {
  test('Reply and Send Message open the reply screen, Post Your Ad opens /post, Join Free is hidden', async () => {
    const context = await chromium.browser.newContext();
    await verifiedMember(context);
    const page = await context.newPage();
    const ad = builtAds().find((entry) => entry.city === 'Los Angeles')!;
    await gotoEnhanced(page, `${baseUrl()}${cityPath('California', 'Los Angeles')}`);
    expect(await page.locator('.member-bar').count()).toBe(1);
    expect(await page.locator('a[data-member-action="join"]:visible').count()).toBe(0);
    await page
      .locator(`#ad-${ad.id}-title`)
      .locator('xpath=ancestor::article')
      .getByRole('link', { name: /^Reply/ })
      .click();
    await page.waitForURL(`${baseUrl()}${newMessagePath(ad.id)}`);
    expect(await heading(page)).toBe('Reply to an ad');
    expect(await page.locator('.reply-card__ad h2').textContent()).toBe(ad.title);
    expect(await page.locator('.reply-card__place').textContent()).toBe(`${ad.city}, ${ad.state}`);
    expect(await page.locator('.reply-card .banner').textContent()).toContain(
      ad.sample ? 'This is a sample ad' : "This is an editor's listing",
    );
    expect(await page.locator('dialog').count()).toBe(0);
    await screenshots(page, 'messages-new');

    await page.getByRole('link', { name: 'Back to the ad' }).click();
    await waitForEnhanced(page);
    await page.getByRole('link', { name: 'Send Message' }).click();
    await page.waitForURL(`${baseUrl()}${newMessagePath(ad.id)}`);

    await gotoEnhanced(page, `${baseUrl()}/`);
    await page.getByRole('link', { name: 'Post Your Ad' }).first().click();
    await page.waitForURL(`${baseUrl()}/post`);
    await context.close();
  });

  test('an unknown ad on the reply screen: 404 with a clear message', async () => {
    const context = await chromium.browser.newContext();
    await verifiedMember(context);
    const page = await context.newPage();
    const response = await page.goto(`${baseUrl()}/messages/new?ad=1`);
    expect(response?.status()).toBe(404);
    expect(await heading(page)).toBe('Ad not found');
    await context.close();
  });

  test('signed out, the links are real without JavaScript: Reply leads to sign in and back', async () => {
    const ad = builtAds().find((entry) => entry.city === 'Los Angeles')!;
    const { html } = await fetchPage(cityPath('California', 'Los Angeles'));
    expect(html).toContain(`href="/messages/new?ad=${ad.id}" data-member-action="reply"`);
    expect((await fetchPage('/')).html).toContain('href="/post" data-member-action="post"');
    const response = await fetch(`${baseUrl()}${newMessagePath(ad.id)}`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      `/signin?next=${encodeURIComponent(newMessagePath(ad.id))}`,
    );
  });
});

describe('screenshots and accessibility of the account page with ads in several statuses', () => {
  test('at 390 and 1280 px, no serious or critical axe violation on the new pages', async () => {
    const context = await chromium.browser.newContext({ bypassCSP: true });
    await verifiedMember(context);
    const titles = ['A live ad with an edit waiting', 'An ad in review', 'A rejected ad'];
    const ids: number[] = [];
    for (const [index, title] of titles.entries())
      ids.push(await postAd(context, ['Los Angeles', 'San Diego', 'San Jose'][index]!, title));
    await onServerStore(async (t) => {
      await moveAd(t, ids[0]!, { status: 'live', expiresOn: dayFromToday(12) });
      await editLiveAd(t, ids[0]!, {
        title: 'A live ad, edited',
        description: 'New words',
        age: 36,
        seeks: 'm4w',
      });
      await moveAd(t, ids[2]!, {
        status: 'rejected',
        reason: 'contact',
        note: 'Please remove the phone number and send it again.',
      });
    });
    // Posted once the others left review (three may wait at once), then expired.
    const expired = await postAd(context, 'San Francisco', 'An expired ad');
    await onServerStore((t) => moveAd(t, expired, { status: 'live', expiresOn: dayFromToday(-3) }));
    const page = await context.newPage();
    const found: string[] = [];
    for (const path of [
      accountPath(),
      postPath(),
      postInReviewPath(),
      `/account/ads/${ids[0]}/edit`,
      newMessagePath(builtAds()[0]!.id),
    ]) {
      await gotoEnhanced(page, `${baseUrl()}${path}`);
      if (path === accountPath()) await screenshots(page, 'account');
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        for (const violation of await seriousAxeViolations(page))
          found.push(`${path} at ${width}: ${violation}`);
      }
    }
    expect(found).toEqual([]);
    await context.close();
  });
});

/** Full-page screenshots at a phone's width and a desktop's, for a person to look at. */
async function screenshots(page: Page, name: string) {
  const size = page.viewportSize();
  await screenshotsAtWidths(page, SHOTS, name);
  if (size) await page.setViewportSize(size);
}

function ageOf(dateOfBirth: string): number {
  const [year, month, day] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const now = new Date();
  const had =
    now.getUTCMonth() + 1 > month || (now.getUTCMonth() + 1 === month && now.getUTCDate() >= day);
  return now.getUTCFullYear() - year - (had ? 0 : 1);
}
