// When the database cannot be used for now, what needs it is answered 503 with Retry-After and a
// message saying so, not a bug's 500, and works again by itself once the database does (see
// postgres-outage.test.ts for PostgreSQL going away). On SQLite that is the file locked past its
// busy timeout (5 s) by another process: a long-running command, a backup tool taking the writer.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DATABASE_UNAVAILABLE,
  UNAVAILABLE_RETRY_AFTER,
} from '../../../server/http/middleware/database-unavailable.ts';
import {
  cookieHeader,
  FORM_TYPE,
  makeTestApp,
  ORIGIN,
  PASSWORD,
  postJson,
  sessionTokenOf,
  signupBody,
  type TestApp,
} from '../../helpers/api.ts';
import { bannerOf, headingOf, withFixtureContent } from '../../helpers/pages.ts';
import { onPostgres } from '../../helpers/test-store.ts';
import { meApiPath, signinApiPath, signoutApiPath, signupApiPath } from '../../../core/paths.ts';

// The refused form comes back as its page, which reads the compiled content.
withFixtureContent();

describe.skipIf(onPostgres())('SQLite locked by another process past its busy timeout', () => {
  let t: TestApp;
  let email: string;
  let token: string;
  let locker: Database.Database;
  beforeAll(async () => {
    t = await makeTestApp();
    const body = signupBody();
    email = body.email as string;
    const signup = await postJson(t.app, signupApiPath(), body);
    expect(signup.status).toBe(201);
    token = sessionTokenOf(signup);
    // Another process's connection holding the writer: readers go on (WAL), writers wait.
    locker = new Database(t.dbPath);
    locker.exec('BEGIN IMMEDIATE');
  });
  afterAll(async () => {
    if (locker.inTransaction) locker.exec('ROLLBACK');
    locker.close();
    await t.remove();
  });

  it('a script: 503, JSON { error } saying so, Retry-After', async () => {
    const response = await postJson(t.app, signoutApiPath(), {}, cookieHeader(token));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe(String(UNAVAILABLE_RETRY_AFTER));
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ error: DATABASE_UNAVAILABLE });
  });

  it('a browser posting a form: its page again, with the message in the banner', async () => {
    const response = await t.app.request(`${ORIGIN}${signinApiPath()}`, {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE },
      body: new URLSearchParams({ email, password: PASSWORD }).toString(),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe(String(UNAVAILABLE_RETRY_AFTER));
    const html = await response.text();
    expect(headingOf(html)).toBe('Sign in to Localboard');
    expect(bannerOf(html)).toBe(DATABASE_UNAVAILABLE);
  });

  it('the pages of the site meanwhile: served', async () => {
    const response = await t.app.request(`${ORIGIN}/`);
    expect(response.status).toBe(200);
  });

  it('once the file is free again: answered as usual, nothing to restart', async () => {
    locker.exec('ROLLBACK');
    const response = await postJson(t.app, signoutApiPath(), {}, cookieHeader(token));
    expect(response.status).toBe(200);
    const me = await t.app.request(`${ORIGIN}${meApiPath()}`, { headers: cookieHeader(token) });
    expect(me.status).toBe(401);
  });
});
