// Sessions: sign in, the current member, sign out (revoked server-side), and a restart that loses
// nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  meWithNothingNew,
  type App,
  cookieHeader,
  JSON_TYPE,
  listen,
  makeTestApp,
  openTestApp,
  ORIGIN,
  PASSWORD,
  postForm,
  postJson,
  sessionCookieOf,
  sessionsOf,
  sessionTokenOf,
  signupBody,
  type TestApp,
  uniqueEmail,
} from '../../helpers/api.ts';
import { withFixtureContent } from '../../helpers/pages.ts';
import { meApiPath, signinApiPath, signoutApiPath, signupApiPath } from '../../../core/paths.ts';

// Refused form posts come back as their pages, which read the compiled content.
withFixtureContent();

const WRONG_CREDENTIALS = 'Email or password is incorrect.';
const NOT_SIGNED_IN = 'You are not signed in.';

let testApp: TestApp;
let app: App;
const member = uniqueEmail('member');
beforeAll(async () => {
  testApp = await makeTestApp();
  app = testApp.app;
  const signup = await postJson(app, signupApiPath(), signupBody({ email: member }));
  expect(signup.status).toBe(201);
});
afterAll(() => testApp.remove());

const me = (token?: string) =>
  Promise.resolve(
    app.request(`${ORIGIN}${meApiPath()}`, { headers: token ? cookieHeader(token) : {} }),
  );

async function signIn(email = member, password = PASSWORD): Promise<string> {
  const response = await postJson(app, signinApiPath(), { email, password });
  expect(response.status).toBe(200);
  return sessionTokenOf(response);
}

describe(`POST ${signinApiPath()}`, () => {
  it('answers 200 with the redirect to / and sets the session cookie', async () => {
    const before = await sessionsOf(testApp, member);
    const response = await postJson(app, signinApiPath(), { email: member, password: PASSWORD });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ redirectUrl: '/' });
    const cookie = sessionCookieOf(response);
    expect(cookie?.value).toMatch(/^[\w-]{40,}$/);
    expect(cookie?.attributes.get('httponly')).toBe(true);
    expect(cookie?.attributes.get('samesite')).toBe('Lax');
    expect(cookie?.attributes.get('path')).toBe('/');
    expect(await sessionsOf(testApp, member)).toBe(before + 1);
  });

  it('signs in with the email in another case and with spaces around it', async () => {
    const token = await signIn(`  ${member.toUpperCase()} `);
    const response = await me(token);
    expect(await response.json()).toEqual(meWithNothingNew(member));
  });

  it('answers a wrong password and an unknown email exactly alike (401, same message)', async () => {
    const wrongPassword = await postJson(app, signinApiPath(), {
      email: member,
      password: 'not the password',
    });
    const unknownEmail = await postJson(app, signinApiPath(), {
      email: uniqueEmail('nobody'),
      password: PASSWORD,
    });
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.status).toBe(401);
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    const bodies = [await wrongPassword.text(), await unknownEmail.text()];
    expect(JSON.parse(bodies[0]!)).toEqual({ error: WRONG_CREDENTIALS });
    expect(bodies[1]).toBe(bodies[0]);
  });

  it('as a form: 303 to / on success; on failure the page with the message, email kept', async () => {
    const success = await postForm(app, signinApiPath(), { email: member, password: PASSWORD });
    expect(success.status).toBe(303);
    expect(success.headers.get('location')).toBe('/');
    expect(sessionCookieOf(success)?.value).toBeTruthy();

    const failure = await postForm(app, signinApiPath(), {
      email: member,
      password: 'wrong-form-password',
    });
    expect(failure.status).toBe(401);
    const html = await failure.text();
    expect(html).toContain(`role="alert">${WRONG_CREDENTIALS}</p>`);
    expect(html).toContain(`name="email" value="${member}"`);
    expect(html).not.toContain('wrong-form-password');
  });
});

describe(`GET ${meApiPath()}`, () => {
  it('answers 200 with the email for a session cookie, never cached', async () => {
    const response = await me(await signIn());
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual(meWithNothingNew(member));
  });

  it('answers 401 without a cookie, never cached', async () => {
    const response = await me();
    expect(response.status).toBe(401);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ error: NOT_SIGNED_IN });
  });

  it.each([
    ['a made-up token', 'x'.repeat(43)],
    ['a malformed cookie value', '%E0%A4%A'],
    ['an empty cookie value', ''],
  ])('answers 401 for %s', async (_, token) => {
    const response = await app.request(`${ORIGIN}${meApiPath()}`, {
      headers: { cookie: `lb_session=${token}` },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: NOT_SIGNED_IN });
  });
});

describe(`POST ${signoutApiPath()}`, () => {
  it('clears the cookie and revokes the session server-side', async () => {
    const token = await signIn();
    const other = await signIn();
    expect((await me(token)).status).toBe(200);

    const response = await app.request(`${ORIGIN}${signoutApiPath()}`, {
      method: 'POST',
      headers: { ...cookieHeader(token), 'content-type': JSON_TYPE },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ redirectUrl: '/' });
    const cleared = sessionCookieOf(response);
    expect(cleared?.value).toBe('');
    expect(cleared?.attributes.get('max-age')).toBe('0');
    expect(cleared?.attributes.get('path')).toBe('/');

    // Replaying the old cookie value no longer works: the row is gone, not just the cookie.
    const replay = await me(token);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ error: NOT_SIGNED_IN });
    // Only that session: the member's other session is untouched.
    expect((await me(other)).status).toBe(200);
  });

  it('as a form post: 303 to / and the cookie cleared', async () => {
    const token = await signIn();
    const response = await app.request(`${ORIGIN}${signoutApiPath()}`, {
      method: 'POST',
      headers: { ...cookieHeader(token), 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    expect(sessionCookieOf(response)?.attributes.get('max-age')).toBe('0');
    expect((await me(token)).status).toBe(401);
  });

  it('answers 200 and clears the cookie even when not signed in', async () => {
    const response = await app.request(`${ORIGIN}${signoutApiPath()}`, { method: 'POST' });
    expect(response.status).toBe(200);
    expect(sessionCookieOf(response)?.attributes.get('max-age')).toBe('0');
  });
});

describe('a restart', () => {
  it('loses no account and no session (new app on the same file, over real HTTP)', async () => {
    const first = await makeTestApp();
    let second: TestApp | undefined;
    try {
      const email = uniqueEmail('durable');
      const password = 'survives a restart 1';
      const firstServer = await listen(first.app);
      const signup = await fetch(`${firstServer.url}${signupApiPath()}`, {
        method: 'POST',
        headers: { 'content-type': JSON_TYPE },
        body: JSON.stringify(signupBody({ email, password })),
      });
      expect(signup.status).toBe(201);
      const token = sessionTokenOf(signup);
      await firstServer.close();
      first.close();

      second = await openTestApp(first.dir);
      const secondServer = await listen(second.app);
      try {
        const current = await fetch(`${secondServer.url}${meApiPath()}`, {
          headers: cookieHeader(token),
        });
        expect(current.status).toBe(200);
        expect(await current.json()).toEqual(meWithNothingNew(email));

        const signin = await fetch(`${secondServer.url}${signinApiPath()}`, {
          method: 'POST',
          headers: { 'content-type': JSON_TYPE },
          body: JSON.stringify({ email, password }),
        });
        expect(signin.status).toBe(200);
        expect(await signin.json()).toEqual({ redirectUrl: '/' });
      } finally {
        await secondServer.close();
      }
    } finally {
      second?.close();
      first.remove();
    }
  });
});
