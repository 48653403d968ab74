// What a member can see of their own things, read as they would: their data file (Download my
// data, GET /api/account/data) holds their account, their ads with status, expiry and pending
// edit, their photos, conversations with every message, blocks, reports, saved searches, the
// decisions about them with their appeals. A test reads these here, never from the rows.
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { accountDataApiPath, accountPath } from '../../core/paths.ts';
import type { memberDataFile } from '../../server/accounts/data-file.ts';
import { cookieHeader, ORIGIN, type App } from './api.ts';

export type MyDataFile = ReturnType<typeof memberDataFile>;

/** The member's data file, downloaded with their session. */
export async function myDataFile(
  t: { app: App },
  member: { session: string },
): Promise<MyDataFile> {
  const response = await t.app.request(`${ORIGIN}${accountDataApiPath()}`, {
    headers: cookieHeader(member.session),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as MyDataFile;
}

/** One of the member's ads, as their data file shows it. */
export async function myAd(
  t: { app: App },
  member: { session: string },
  adId: number,
): Promise<MyDataFile['ads'][number]> {
  const ad = (await myDataFile(t, member)).ads.find((each) => each.id === adId);
  expect(ad, `ad ${adId} in the member's data`).toBeDefined();
  return ad!;
}

/**
 * The id of the member's ad with this title, as their My ads page links it (its Delete form), in
 * the browser page signed in as them: the page is left on My ads.
 */
export async function myAdIdOnMyAds(page: Page, siteUrl: string, title: string): Promise<number> {
  await page.goto(`${siteUrl}${accountPath()}`);
  const action = await page
    .getByRole('listitem', { name: title, exact: true })
    .locator('form[action$="/delete"]')
    .getAttribute('action');
  const id = /\/api\/ads\/(\d+)\/delete$/.exec(action ?? '')?.[1];
  expect(id, `an ad titled “${title}” on My ads`).toBeDefined();
  return Number(id);
}
