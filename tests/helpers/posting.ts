// Posting tests: verified members made through the API (sign up, then the row marked verified),
// ads posted as forms or JSON, taken on through the store as moderators and members would
// (moveAd), and the member_ads rows read back from the store (`t.sql`, on either engine).
import { expect } from 'vitest';
import { deleteAccount } from '../../server/accounts/delete-account.ts';
import type { AdContent } from '../../store/parts/member-ads.ts';
import {
  MODERATION_REASONS,
  type ModerationReason,
} from '../../core/schemas/moderation-reasons.ts';
import { cookieHeader, FORM_TYPE, ORIGIN, type TestApp } from './api.ts';
import { decodeEntities } from './html-text.ts';
import { getPage as getModerationPage, signUpMember, type TestMember } from './moderation.ts';

export type { TestMember };

/** A valid ad in a city of the content fixture (its first five cities of each state). */
export const validAd = (overrides: Record<string, string> = {}): Record<string, string> => ({
  state: 'California',
  city: 'Los Angeles',
  age: '34',
  seeks: 'w4m',
  title: 'Coffee and a long walk by the sea',
  description: 'I like early mornings,\nold films and a good bookshop.\n\nSay hello.',
  ...overrides,
});

/** Signs up through the API (moderation.ts signUpMember); verified unless told otherwise. */
export async function makeMember(
  t: TestApp,
  { verified = true, dateOfBirth }: { verified?: boolean; dateOfBirth?: string } = {},
): Promise<TestMember> {
  const member = await signUpMember(t.app, t.store, 'poster', dateOfBirth ? { dateOfBirth } : {});
  if (verified) await t.store.accounts.markVerified(member.accountId, new Date().toISOString());
  return member;
}

/** Deletes the account as Delete my account does once the password is checked. */
export async function deleteAccountOf(t: Pick<TestApp, 'store'>, accountId: number) {
  expect((await deleteAccount(t.store, accountId, new Date())).kind).toBe('deleted');
}

/** Posts fields as a browser form without JavaScript would (or JSON), with the member's cookie. */
export function submit(
  t: TestApp,
  path: string,
  fields: Record<string, unknown>,
  session?: string,
  kind: 'form' | 'json' = 'form',
  headers: Record<string, string> = {},
): Promise<Response> {
  const body =
    kind === 'form'
      ? new URLSearchParams(fields as Record<string, string>).toString()
      : JSON.stringify(fields);
  return Promise.resolve(
    t.app.request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: {
        'content-type': kind === 'form' ? FORM_TYPE : 'application/json',
        ...(session ? cookieHeader(session) : {}),
        ...headers,
      },
      body,
    }),
  );
}

export const getPage = (t: TestApp, path: string, session?: string) =>
  getModerationPage(t.app, path, session);

export interface StoredAd {
  id: number;
  account_id: number;
  state: string;
  city: string;
  age: number;
  seeks: string;
  title: string;
  description: string;
  status: string;
  marks: string;
  pending_age: number | null;
  pending_seeks: string | null;
  pending_title: string | null;
  pending_description: string | null;
  pending_marks: string | null;
  created_at: string;
  submitted_at: string;
  expires_on: string | null;
  reminded_at: string | null;
  updated_at: string;
  revision: number;
}

/** Every member ad (of the account, when given), by id. */
export function storedAds(t: TestApp, accountId?: number): Promise<StoredAd[]> {
  return accountId === undefined
    ? t.sql.all<StoredAd>('SELECT * FROM member_ads ORDER BY id')
    : t.sql.all<StoredAd>('SELECT * FROM member_ads WHERE account_id = ? ORDER BY id', accountId);
}

/** Where a member's ad in review goes next, and what its moderator or member said. */
export interface AdOutcome {
  status: 'review' | 'live' | 'rejected' | 'removed' | 'deleted';
  /** Approved until this day (also for an ad removed or deleted once live). */
  expiresOn?: string;
  /** On the site from this day (today unless the expiry is earlier, then that day). */
  postedOn?: string;
  /** A moderator's reason for a rejection or removal, and their note. */
  reason?: ModerationReason;
  note?: string;
  /** Its member already reminded of the expiry (the reminders' claim). */
  reminded?: boolean;
}

/**
 * Takes a member's ad in review (as posted) where moderators, the reminders or its member would
 * take it, through the store: approved until `expiresOn`, rejected, removed once live, deleted.
 */
export async function moveAd(t: Pick<TestApp, 'store'>, id: number, to: AdOutcome): Promise<void> {
  const { memberAds, moderation } = t.store;
  const at = new Date().toISOString();
  const revision = async () => (await memberAds.find(id))!.revision;
  const why = { reason: MODERATION_REASONS[to.reason ?? 'spam'], note: to.note };
  const live =
    to.status === 'live' || to.status === 'removed' || (to.status === 'deleted' && !!to.expiresOn);
  let done = true;
  if (live) {
    const expiresOn = to.expiresOn ?? dayFromToday(30);
    const today = dayFromToday(0);
    const postedOn = to.postedOn ?? (expiresOn < today ? expiresOn : today);
    done &&= await moderation.approveNew(id, await revision(), at, { postedOn, expiresOn });
  }
  if (to.status === 'rejected') done &&= await moderation.rejectNew(id, await revision(), why, at);
  if (to.status === 'removed') done &&= await moderation.removeLive(id, await revision(), why, at);
  if (to.status === 'deleted') done &&= await memberAds.markDeleted(id, await revision(), at);
  if (to.reminded) done &&= await memberAds.claimReminder(id, at);
  expect(done).toBe(true);
}

/** A live ad's edit waiting for review, as the edit route stores it: `edit` over its text. */
export async function editLiveAd(
  t: Pick<TestApp, 'store'>,
  id: number,
  edit: Partial<AdContent>,
): Promise<void> {
  const ad = (await t.store.memberAds.find(id))!;
  const content = { age: ad.age, seeks: ad.seeks, title: ad.title, description: ad.description };
  const at = new Date().toISOString();
  expect(
    await t.store.memberAds.setPendingEdit(id, ad.revision, { ...content, ...edit }, '[]', at),
  ).toBe(true);
}

/**
 * Sets columns of a member ad directly, for the store's contract tests (tests/integration/store/)
 * alone: every other test moves an ad through moveAd and time through the clock (clock.ts).
 */
export async function setAd(
  t: Pick<TestApp, 'sql'>,
  id: number,
  columns: Record<string, string | number | null>,
): Promise<void> {
  const names = Object.keys(columns);
  const query = `UPDATE member_ads SET ${names.map((name) => `${name} = ?`).join(', ')} WHERE id = ?`;
  await t.sql.run(query, ...Object.values(columns), id);
}

/** YYYY-MM-DD `days` from today (UTC). */
export const dayFromToday = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The message shown beside a field of the posting form (raw HTML). */
export function fieldErrorOf(html: string, field: string): string | undefined {
  const match = new RegExp(`<p class="field__error" id="ad-${field}-error">([^<]*)</p>`).exec(
    html.replace(/<!-- -->/g, ''),
  );
  return match?.[1] && decodeEntities(match[1]);
}
