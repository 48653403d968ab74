// Rate limits with small windows (3 attempts a minute): sign-up per IP, sign-in per account and
// per IP. Each test builds its own app on a database of its own, so the counters start at zero;
// on PostgreSQL a second app on the same database (another instance) counts with the first.
import { describe, expect, it } from 'vitest';
import type { RateLimitSettings } from '../../../server/auth/rate-limits.ts';
import {
  JSON_TYPE,
  limitsWith,
  PASSWORD,
  postJson,
  signupBody,
  uniqueEmail,
  type TestApp,
  type TestAppOptions,
  testAppsForEachTest,
} from '../../helpers/api.ts';
import { withFixtureContent } from '../../helpers/pages.ts';
import { onPostgres } from '../../helpers/test-store.ts';
import { signinApiPath, signupApiPath } from '../../../core/paths.ts';
import { storedRow } from '../../helpers/stored-rows.ts';

// Refused form posts come back as their pages, which read the compiled content.
withFixtureContent();

const SMALL = { points: 3, duration: 60 };
const WRONG_CREDENTIALS = 'Email or password is incorrect.';

const apps = testAppsForEachTest();

async function appWith(
  limits: Partial<RateLimitSettings>,
  options: TestAppOptions = {},
): Promise<TestApp> {
  return apps.open({ ...options, rateLimits: limitsWith(limits) });
}

/** Another instance of `first`'s app, on the same database, with the same settings. */
async function secondInstance(
  first: TestApp,
  limits: Partial<RateLimitSettings>,
  options: TestAppOptions = {},
): Promise<TestApp> {
  return apps.openAgain(first, { ...options, rateLimits: limitsWith(limits) });
}

const accountOf = (testApp: TestApp, email: unknown) =>
  storedRow(testApp, 'SELECT email FROM accounts WHERE email = ?', email);

async function expectTooMany(response: Response) {
  expect(response.status).toBe(429);
  const retryAfter = response.headers.get('retry-after');
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
  expect(Number(retryAfter)).toBeLessThanOrEqual(SMALL.duration);
  const body = (await response.json()) as { error: string };
  expect(body.error).toMatch(/^Too many attempts/);
  expect(body.error).toBe('Too many attempts. Please wait 1 minute and try again.');
  expect(response.headers.getSetCookie()).toEqual([]);
}

describe('sign-up per IP', () => {
  it('answers the 4th attempt inside the window with 429 and Retry-After', async () => {
    const testApp = await appWith({ signupPerIp: SMALL });
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await postJson(testApp.app, signupApiPath(), signupBody())).status).toBe(201);
    }
    const fourth = signupBody();
    await expectTooMany(await postJson(testApp.app, signupApiPath(), fourth));
    expect(await accountOf(testApp, fourth.email)).toBeUndefined();
  });

  it.runIf(onPostgres())(
    'counts sign-ups sent to two instances on one database together',
    async () => {
      const first = await appWith({ signupPerIp: SMALL });
      const second = await secondInstance(first, { signupPerIp: SMALL });
      for (const { app } of [first, second, first]) {
        expect((await postJson(app, signupApiPath(), signupBody())).status).toBe(201);
      }
      const fourth = signupBody();
      await expectTooMany(await postJson(second.app, signupApiPath(), fourth));
      await expectTooMany(await postJson(first.app, signupApiPath(), signupBody()));
      expect(await accountOf(first, fourth.email)).toBeUndefined();
    },
  );

  it('counts refused attempts too (a bad body still spends one)', async () => {
    const { app } = await appWith({ signupPerIp: SMALL });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const response = await postJson(app, signupApiPath(), signupBody({ password: 'short' }));
      expect(response.status).toBe(400);
    }
    await expectTooMany(await postJson(app, signupApiPath(), signupBody()));
  });

  it('over real HTTP, takes the IP from the socket and ignores X-Forwarded-For by default', async () => {
    const testApp = await appWith({ signupPerIp: SMALL });
    const server = await apps.serve(testApp.app);
    const signup = (body: Record<string, unknown>, forwardedFor: string) =>
      fetch(`${server.url}${signupApiPath()}`, {
        method: 'POST',
        headers: { 'content-type': JSON_TYPE, 'x-forwarded-for': forwardedFor },
        body: JSON.stringify(body),
      });

    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await signup(signupBody(), `203.0.113.${attempt}`)).status).toBe(201);
    }
    const fourth = signupBody();
    await expectTooMany(await signup(fourth, '203.0.113.99'));
    expect(await accountOf(testApp, fourth.email)).toBeUndefined();
  });

  // Two proxies: the outer one (10.0.0.1, as the inner one saw it) wrote the client's address.
  // client-address.test.ts covers spoofed chains and the other ways to name the proxies.
  it('behind two proxies (trustProxy: 2), counts each X-Forwarded-For client on its own', async () => {
    const { app } = await appWith({ signupPerIp: SMALL }, { trustProxy: 2 });
    const from = (ip: string) => ({ 'x-forwarded-for': `${ip}, 10.0.0.1` });
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(
        (await postJson(app, signupApiPath(), signupBody(), from('198.51.100.7'))).status,
      ).toBe(201);
    }
    await expectTooMany(await postJson(app, signupApiPath(), signupBody(), from('198.51.100.7')));
    expect((await postJson(app, signupApiPath(), signupBody(), from('198.51.100.8'))).status).toBe(
      201,
    );
  });
});

// The account's failures slow the client that made them; the owner elsewhere is not held back
// (sign-in-backoff.test.ts).
describe('sign-in per account', () => {
  it('answers the failing client 429 after 3 wrong passwords for one email, each a 401 before', async () => {
    const { app } = await appWith({ signinPerEmail: SMALL });
    const email = uniqueEmail('target');
    const other = uniqueEmail('bystander');
    for (const address of [email, other]) {
      const response = await postJson(app, signupApiPath(), signupBody({ email: address }));
      expect(response.status).toBe(201);
    }

    for (let attempt = 1; attempt <= 3; attempt++) {
      const wrong = await postJson(app, signinApiPath(), { email, password: `guess-${attempt}-x` });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toEqual({ error: WRONG_CREDENTIALS });
    }
    // The account is under attack: this client must wait, even with the right password typed in
    // another case...
    await expectTooMany(
      await postJson(app, signinApiPath(), { email: email.toUpperCase(), password: PASSWORD }),
    );
    // ...while another account from the same client still signs in.
    expect(
      (await postJson(app, signinApiPath(), { email: other, password: PASSWORD })).status,
    ).toBe(200);
  });
});

describe('sign-in per IP', () => {
  it('answers 429 on the 4th attempt from one IP, whatever the email', async () => {
    const { app } = await appWith({ signinPerIp: SMALL });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const response = await postJson(app, signinApiPath(), {
        email: uniqueEmail('spray'),
        password: PASSWORD,
      });
      expect(response.status).toBe(401);
    }
    await expectTooMany(
      await postJson(app, signinApiPath(), { email: uniqueEmail('spray'), password: PASSWORD }),
    );
  });

  it('answers a form post over the limit with the sign-in page and the message', async () => {
    const { app } = await appWith({ signinPerIp: SMALL });
    const form = (email: string) =>
      app.request(`http://localhost${signinApiPath()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password: 'typed-password-1' }).toString(),
      });
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await form(uniqueEmail('spray'))).status).toBe(401);
    }
    const email = uniqueEmail('spray');
    const response = await form(email);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    const html = await response.text();
    expect(html).toContain('role="alert">Too many attempts. Please wait 1 minute');
    expect(html).toContain(`name="email" value="${email}"`);
    expect(html).not.toContain('typed-password-1');
  });
});
