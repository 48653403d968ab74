// Posting tests: verified members made through the API (sign up, then the row marked verified),
// ads posted as forms or JSON, and the member_ads rows read back from the store (`t.sql`, on
// either engine).
import { expect } from 'vitest';
import {
  cookieHeader,
  FORM_TYPE,
  ORIGIN,
  postJson,
  sessionTokenOf,
  signupBody,
  uniqueEmail,
  type TestApp,
} from './api.ts';

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

export interface TestMember {
  email: string;
  session: string;
  accountId: number;
}

/** Signs up through the API; verified unless told otherwise. */
export async function makeMember(
  t: TestApp,
  { verified = true, dateOfBirth }: { verified?: boolean; dateOfBirth?: string } = {},
): Promise<TestMember> {
  const email = uniqueEmail('poster');
  const response = await postJson(
    t.app,
    '/api/signup',
    signupBody({ email, ...(dateOfBirth ? { dateOfBirth } : {}) }),
  );
  expect(response.status).toBe(201);
  const { accounts } = t.store;
  const accountId = (await accounts.findByEmail(email))!.id;
  if (verified) await accounts.markVerified(accountId, new Date().toISOString());
  return { email, session: sessionTokenOf(response), accountId };
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
  Promise.resolve(
    t.app.request(`${ORIGIN}${path}`, { headers: session ? cookieHeader(session) : {} }),
  );

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

/**
 * Sets columns of a member ad directly, as a moderator's approval or the passing of time would
 * (approval is the moderation helper's; here only its outcome matters).
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
  return match?.[1]
    ?.replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
