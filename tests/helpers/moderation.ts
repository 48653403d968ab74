// Moderation tests: members made by signing up through the API, moderators by the operator's
// command code (server/moderation/moderator-command.ts), member ads put in review, approved and
// edited through the store as the posting and moderation code do (the policy scanner's marks as
// JSON), and a publisher that records what it was asked to publish (standing in for the build it
// would run).
//
// Rows are read and written through the test's store (`t.store`, `t.sql`: either engine).
import { expect } from 'vitest';
import type { Publisher } from '../../server/publishing/publisher.ts';
import { makeModerator } from '../../server/moderation/moderator-command.ts';
import type { Store } from '../../store/store.ts';
import type { PolicyMark } from '../../core/views/moderation.ts';
import type { AdPhotoRef } from '../../core/schemas/photos.ts';
import type { Seeks } from '../../core/schemas/seeks.ts';
import {
  cookieHeader,
  FORM_TYPE,
  ORIGIN,
  PASSWORD,
  postJson,
  sessionTokenOf,
  signupBody,
  uniqueEmail,
  type App,
} from './api.ts';
import type { TestSql } from './test-store.ts';
import { signinApiPath, signupApiPath } from '../../core/paths.ts';
import { storedRows } from './stored-rows.ts';

export interface TestMember {
  email: string;
  session: string;
  accountId: number;
}

/**
 * Signs up through the API (`fields`: the form's other answers, a date of birth); the account's
 * id is read back from the store.
 */
export async function signUpMember(
  app: App,
  store: Store,
  label = 'member',
  fields: { dateOfBirth?: string } = {},
): Promise<TestMember> {
  const email = uniqueEmail(label);
  const response = await postJson(app, signupApiPath(), signupBody({ email, ...fields }));
  expect(response.status).toBe(201);
  const id = (await store.moderation.accountByEmail(email))!.accountId;
  return { email, session: sessionTokenOf(response), accountId: id };
}

/**
 * Two moderators' answers to one decision sent at once (`responses[i]` by `moderators[i]`): one
 * went through (`ok`: 303 for a form, 200 for JSON), the other was refused with 409. The one who
 * went through, and the refused answer.
 */
export function oneWentThrough(
  responses: Response[],
  moderators: TestMember[],
  ok: 200 | 303,
): { winner: TestMember; refused: Response } {
  expect(responses.map((response) => response.status).sort()).toEqual([ok, 409]);
  const at = responses.findIndex((response) => response.status === ok);
  return { winner: moderators[at]!, refused: responses[1 - at]! };
}

/** The member's email as a regular expression matches it (its dots and pluses escaped). */
export const emailPattern = (member: TestMember) => member.email.replace(/[.+]/g, '\\$&');

/** Signs the member in again (the tests' PASSWORD), as on another browser: that session's token. */
export async function signInAgain(app: App, member: TestMember): Promise<string> {
  const response = await postJson(app, signinApiPath(), {
    email: member.email,
    password: PASSWORD,
  });
  expect(response.status).toBe(200);
  return sessionTokenOf(response);
}

/** A member given the moderator role as `npm run moderator -- add EMAIL` gives it. */
export async function signUpModerator(app: App, store: Store): Promise<TestMember> {
  const member = await signUpMember(app, store, 'moderator');
  expect((await makeModerator(store, member.email)).code).toBe(0);
  return member;
}

export interface NewMemberAd {
  accountId: number;
  state?: string;
  city?: string;
  age?: number;
  seeks?: string;
  title?: string;
  description?: string;
  marks?: PolicyMark[];
  /** Minutes before now that it was submitted (the queue is oldest first). */
  submittedMinutesAgo?: number;
  /** Its photos in order (attached to the ad apart: store.photos.attach). */
  photos?: AdPhotoRef[];
}

/** Where the ads go: the test's store (a TestApp, a TestStore, an e2e server). */
export interface WithStore {
  store: Store;
}

/** Posts an ad in review through the store, as the posting code stores it; returns its id. */
export async function insertAdInReview({ store }: WithStore, ad: NewMemberAd): Promise<number> {
  const at = new Date(Date.now() - (ad.submittedMinutesAgo ?? 0) * 60_000).toISOString();
  return store.memberAds.insert(
    ad.accountId,
    {
      state: ad.state ?? 'California',
      city: ad.city ?? 'Los Angeles',
      age: ad.age ?? 34,
      seeks: (ad.seeks ?? 'w4m') as Seeks,
      title: ad.title ?? 'Hiking partner for weekend trails',
      description: ad.description ?? 'I like early starts, long trails and a coffee afterwards.',
      ...(ad.photos ? { photos: ad.photos } : {}),
    },
    JSON.stringify(ad.marks ?? []),
    at,
  );
}

/** Approves an ad in review through the store, as a moderator's approval does. */
export async function approveInStore(
  { store }: WithStore,
  id: number,
  days: { postedOn: string; expiresOn: string },
  at = new Date().toISOString(),
): Promise<void> {
  const ad = (await store.memberAds.find(id))!;
  expect(await store.moderation.approveNew(id, ad.revision, at, days)).toBe(true);
}

type LiveAdWithEdit = NewMemberAd & {
  /** Live until this day (2026-12-01 unless told). */
  expiresOn?: string;
  pendingTitle: string;
  pendingDescription?: string;
  pendingMarks?: PolicyMark[];
};

/**
 * A live ad (approved earlier) with an edit waiting for review: posted, approved and edited
 * through the store, as the posting and moderation code do.
 */
export async function insertLiveAdWithEdit(t: WithStore, ad: LiveAdWithEdit): Promise<number> {
  const id = await insertAdInReview(t, ad);
  await approveInStore(t, id, { postedOn: '2026-11-01', expiresOn: ad.expiresOn ?? '2026-12-01' });
  const live = (await t.store.memberAds.find(id))!;
  const edited = await t.store.memberAds.setPendingEdit(
    id,
    live.revision,
    {
      age: live.age,
      seeks: live.seeks,
      title: ad.pendingTitle,
      description: ad.pendingDescription ?? live.description,
    },
    JSON.stringify(ad.pendingMarks ?? []),
    new Date().toISOString(),
  );
  expect(edited).toBe(true);
  return id;
}

export interface StoredAd {
  id: number;
  status: string;
  title: string;
  description: string;
  age: number;
  pending_title: string | null;
  pending_description: string | null;
  approved_at: string | null;
  posted_on: string | null;
  expires_on: string | null;
  rejected_reason: string | null;
  rejected_note: string | null;
  revision: number;
  marks: string;
}

/** The ad's row as stored. */
export async function storedAd(rows: TestSql, id: number): Promise<StoredAd> {
  return (await rows.get<StoredAd>('SELECT * FROM member_ads WHERE id = ?', id))!;
}

export interface LogRow {
  id: number;
  at: string;
  moderator_id: number | null;
  moderator_email: string;
  action: string;
  ad_id: number | null;
  account_id: number | null;
  account_email: string | null;
  reason: string | null;
  note: string | null;
}

/** Every row of the moderation log, oldest first. */
export function logRows(rows: TestSql): Promise<LogRow[]> {
  return storedRows<LogRow>(rows, 'SELECT * FROM moderation_log ORDER BY id');
}

/** A publisher that records each request and answers at once, as a build that succeeded. */
export function recordingPublisher(): Publisher & { reasons: string[] } {
  const reasons: string[] = [];
  return {
    reasons,
    publish(reason) {
      reasons.push(reason);
      return Promise.resolve({ ok: true });
    },
  };
}

export function getPage(app: App, path: string, session?: string): Promise<Response> {
  return Promise.resolve(
    app.request(`${ORIGIN}${path}`, { headers: session ? cookieHeader(session) : {} }),
  );
}

/** A plain form post, as a browser without JavaScript sends it, signed in as `session`. */
export function postModerationForm(
  app: App,
  path: string,
  fields: Record<string, string>,
  session?: string,
): Promise<Response> {
  return Promise.resolve(
    app.request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: {
        'content-type': FORM_TYPE,
        origin: ORIGIN,
        ...(session ? cookieHeader(session) : {}),
      },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/** The same as JSON, as a script sends it. */
export const postModerationJson = (app: App, path: string, body: unknown, session?: string) =>
  postJson(app, path, body, session ? cookieHeader(session) : {});
