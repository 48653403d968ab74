// Moderation tests: members made by signing up through the API, moderators by the operator's
// command code (server/moderation/moderator-command.ts), member ads inserted as the posting code stores them
// (status 'review', the policy scanner's marks as JSON), and a publisher that records what it was
// asked to publish (standing in for the build it would run).
//
// Rows are read and written through the test's store (`t.store`, `t.sql`: either engine).
import { expect } from 'vitest';
import type { Publisher } from '../../server/publishing/publisher.ts';
import { makeModerator } from '../../server/moderation/moderator-command.ts';
import type { Store } from '../../server/store/store.ts';
import type { PolicyMark } from '../../src/pages/moderation-view.ts';
import {
  cookieHeader,
  FORM_TYPE,
  ORIGIN,
  postJson,
  sessionTokenOf,
  signupBody,
  uniqueEmail,
  type App,
} from './api.ts';
import type { TestSql } from './test-store.ts';

export interface TestMember {
  email: string;
  session: string;
  accountId: number;
}

/** Signs up through the API; the account's id is read back from the store. */
export async function signUpMember(app: App, store: Store, label = 'member'): Promise<TestMember> {
  const email = uniqueEmail(label);
  const response = await postJson(app, '/api/signup', signupBody({ email }));
  expect(response.status).toBe(201);
  const id = (await store.moderation.accountByEmail(email))!.accountId;
  return { email, session: sessionTokenOf(response), accountId: id };
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
}

const INSERT_IN_REVIEW = `INSERT INTO member_ads (account_id, state, city, age, seeks, title,
    description, status, marks, created_at, submitted_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, 'review', ?, ?, ?, ?) RETURNING id`;

/** Inserts an ad in review, in the shape the posting code stores it; returns its id. */
export async function insertAdInReview(rows: TestSql, ad: NewMemberAd): Promise<number> {
  const at = new Date(Date.now() - (ad.submittedMinutesAgo ?? 0) * 60_000).toISOString();
  const row = await rows.get<{ id: number }>(
    INSERT_IN_REVIEW,
    ad.accountId,
    ad.state ?? 'California',
    ad.city ?? 'Los Angeles',
    ad.age ?? 34,
    ad.seeks ?? 'w4m',
    ad.title ?? 'Hiking partner for weekend trails',
    ad.description ?? 'I like early starts, long trails and a coffee afterwards.',
    JSON.stringify(ad.marks ?? []),
    at,
    at,
    at,
  );
  return row!.id;
}

const WITH_EDIT = `UPDATE member_ads SET status = 'live', approved_at = ?, posted_on = '2026-11-01',
    expires_on = '2026-12-01', pending_age = age, pending_seeks = seeks, pending_title = ?,
    pending_description = COALESCE(?, description), pending_marks = ?, submitted_at = ?,
    revision = revision + 2
  WHERE id = ?`;

type LiveAdWithEdit = NewMemberAd & {
  pendingTitle: string;
  pendingDescription?: string;
  pendingMarks?: PolicyMark[];
};

/** A live ad (approved earlier) with an edit waiting for review, as the posting code keeps it. */
export async function insertLiveAdWithEdit(rows: TestSql, ad: LiveAdWithEdit): Promise<number> {
  const id = await insertAdInReview(rows, ad);
  const now = new Date().toISOString();
  await rows.run(
    WITH_EDIT,
    now,
    ad.pendingTitle,
    ad.pendingDescription ?? null,
    JSON.stringify(ad.pendingMarks ?? []),
    now,
    id,
  );
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
  return rows.all<LogRow>('SELECT * FROM moderation_log ORDER BY id');
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
