// Moderation tests: members made by signing up through the API, moderators by the operator's
// command code (server/moderator-command.ts), member ads inserted as the posting code stores them
// (status 'review', the policy scanner's marks as JSON), and a publisher that records what it was
// asked to publish (standing in for the build it would run).
import { expect } from 'vitest';
import type { Db } from '../../server/db/database.ts';
import type { Publisher } from '../../server/publishing/publisher.ts';
import { makeModerator } from '../../server/moderator-command.ts';
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

export interface TestMember {
  email: string;
  session: string;
  accountId: number;
}

/** Signs up through the API; the account's id is read back from the database. */
export async function signUpMember(app: App, db: Db, label = 'member'): Promise<TestMember> {
  const email = uniqueEmail(label);
  const response = await postJson(app, '/api/signup', signupBody({ email }));
  expect(response.status).toBe(201);
  const { id } = db.prepare('SELECT id FROM accounts WHERE email = ?').get(email) as { id: number };
  return { email, session: sessionTokenOf(response), accountId: id };
}

/** A member given the moderator role as `npm run moderator -- add EMAIL` gives it. */
export async function signUpModerator(app: App, db: Db): Promise<TestMember> {
  const member = await signUpMember(app, db, 'moderator');
  expect(makeModerator(db, member.email).code).toBe(0);
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

/** Inserts an ad in review, in the shape the posting code stores it; returns its id. */
export function insertAdInReview(db: Db, ad: NewMemberAd): number {
  const at = new Date(Date.now() - (ad.submittedMinutesAgo ?? 0) * 60_000).toISOString();
  const result = db
    .prepare(
      `INSERT INTO member_ads (account_id, state, city, age, seeks, title, description, status,
         marks, created_at, submitted_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'review', ?, ?, ?, ?)`,
    )
    .run(
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
  return Number(result.lastInsertRowid);
}

/** A live ad (approved earlier) with an edit waiting for review, as the posting code keeps it. */
export function insertLiveAdWithEdit(
  db: Db,
  ad: NewMemberAd & {
    pendingTitle: string;
    pendingDescription?: string;
    pendingMarks?: PolicyMark[];
  },
): number {
  const id = insertAdInReview(db, ad);
  const now = new Date().toISOString();
  db.prepare(
    `UPDATE member_ads SET status = 'live', approved_at = ?, posted_on = '2026-11-01',
       expires_on = '2026-12-01', pending_age = age, pending_seeks = seeks, pending_title = ?,
       pending_description = COALESCE(?, description), pending_marks = ?, submitted_at = ?,
       revision = revision + 2
     WHERE id = ?`,
  ).run(
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

export const storedAd = (db: Db, id: number) =>
  db.prepare('SELECT * FROM member_ads WHERE id = ?').get(id) as StoredAd;

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

export const logRows = (db: Db) =>
  db.prepare('SELECT * FROM moderation_log ORDER BY id').all() as LogRow[];

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
