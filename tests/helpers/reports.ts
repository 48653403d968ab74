// Reports tests (docs/product.md section 8): reports sent as a browser without JavaScript or a
// script sends them, from a given client address (the test apps trust one proxy hop, so
// X-Forwarded-For names the client), live member ads and conversations written through the store
// as the other routes write them, and the rows the reports wrote, read back (`t.sql`: either
// engine).
import { expect } from 'vitest';
import { adIdsForCity } from '../../core/content/index.ts';
import {
  cookieHeader,
  FORM_TYPE,
  JSON_TYPE,
  ORIGIN,
  type App,
  type TestApp,
  type TestAppOptions,
} from './api.ts';
import {
  approveInStore,
  insertAdInReview,
  type NewMemberAd,
  type WithStore,
} from './moderation.ts';
import { testAppOnPublishedFixture } from './published-fixture.ts';
import type { TestSql } from './test-store.ts';
import { reportsApiPath } from '../../core/paths.ts';
import { storedRows } from './stored-rows.ts';

/**
 * The test app of a file's tests on the compiled content fixture with its editors' ads published
 * (in memory), so that reports find them as they find the site's ads.
 */
export const reportsTestApp = (options?: TestAppOptions): TestApp =>
  testAppOnPublishedFixture(options);

export interface From {
  /** The client's address (X-Forwarded-For). */
  address?: string;
  /** Signed in as this session. */
  session?: string;
}

const headersOf = (from: From) => ({
  origin: ORIGIN,
  ...(from.address ? { 'x-forwarded-for': from.address } : {}),
  ...(from.session ? cookieHeader(from.session) : {}),
});

/** A plain form post to /api/reports, as a browser without JavaScript sends it. */
export const reportForm = (app: App, fields: Record<string, string>, from: From = {}) =>
  Promise.resolve(
    app.request(`${ORIGIN}${reportsApiPath()}`, {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE, ...headersOf(from) },
      body: new URLSearchParams(fields).toString(),
    }),
  );

/** A report sent as a form and taken: answered 303, on to the thank-you page. */
export async function reportTaken(
  app: App,
  fields: Record<string, string>,
  from: From = {},
): Promise<void> {
  expect((await reportForm(app, fields, from)).status).toBe(303);
}

/** The same as JSON. */
export const reportJson = (app: App, body: unknown, from: From = {}) =>
  Promise.resolve(
    app.request(`${ORIGIN}${reportsApiPath()}`, {
      method: 'POST',
      headers: { 'content-type': JSON_TYPE, ...headersOf(from) },
      body: JSON.stringify(body),
    }),
  );

export const getAs = (app: App, path: string, from: From = {}) =>
  Promise.resolve(app.request(`${ORIGIN}${path}`, { headers: headersOf(from) }));

/** An editor's ad of the compiled content fixture (Los Angeles has two). */
export const editorAdIds = () => adIdsForCity('California', 'Los Angeles');

const day = (offset: number) =>
  new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A live member ad, posted and approved today for 30 days through the store; its id. */
export async function insertLiveAd(t: WithStore, ad: NewMemberAd): Promise<number> {
  const id = await insertAdInReview(t, ad);
  await approveInStore(t, id, { postedOn: day(0), expiresOn: day(30) });
  return id;
}

/**
 * A conversation about a member ad between its poster and a replier, with messages, started and
 * written through the store as the messages routes do.
 */
export async function insertConversation(
  { store }: WithStore,
  c: { adId: number; posterId: number; replierId: number; messages: [number, string][] },
): Promise<number> {
  const at = new Date().toISOString();
  const { title } = (await store.memberAds.find(c.adId))!;
  const id = (await store.conversations.create({
    adId: c.adId,
    adTitle: title,
    posterId: c.posterId,
    replierId: c.replierId,
    at,
  }))!;
  for (const [sender, body] of c.messages)
    await store.conversations.addMessage(id, sender, body, at);
  return id;
}

export interface ReportRow {
  id: number;
  ad_id: number;
  conversation_id: number | null;
  reported_account_id: number | null;
  reporter_key: string;
  reporter_account_id: number | null;
  reason: string;
  note: string;
  ad_copy: string;
  thread: string | null;
  resolved_at: string | null;
  resolution: string | null;
  resolved_by: number | null;
}

export const reportRows = (rows: TestSql, adId: number) =>
  storedRows<ReportRow>(rows, 'SELECT * FROM reports WHERE ad_id = ? ORDER BY id', adId);

export const conversationReportRows = (rows: TestSql, conversationId: number) =>
  storedRows<ReportRow>(
    rows,
    'SELECT * FROM reports WHERE conversation_id = ? ORDER BY id',
    conversationId,
  );

export const hiddenRows = (rows: TestSql, adId: number) =>
  storedRows<{ ad_id: number; kind: string; why: string }>(
    rows,
    'SELECT * FROM hidden_ads WHERE ad_id = ?',
    adId,
  );

export { textOf } from './html-text.ts';
