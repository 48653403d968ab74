// A form posted without JavaScript always gets its form page back with the message, whatever
// refused it: a malformed body, another site, a body too large, an encoding we do not read, a rate
// limit, a busy server. Scripts sending JSON keep getting JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHashingPool, type HashingPool } from '../../../server/auth/hashing-pool.ts';
import {
  dobYearsAgo,
  FORM_TYPE,
  JSON_TYPE,
  limitsWith,
  makeTestApp,
  ORIGIN,
  signupBody,
  uniqueEmail,
  type TestApp,
  testAppForFile,
} from '../../helpers/api.ts';
import { headingOf, withFixtureContent } from '../../helpers/pages.ts';
import { TEST_PASSWORD_HASH_COST } from '../../helpers/password-cost.ts';
import { signinApiPath, signupApiPath } from '../../../core/paths.ts';

// Refused form posts come back as their pages, which read the compiled content.
withFixtureContent();

const CROSS_SITE = 'This request came from another site and was refused.';
const UNREADABLE = 'The form could not be read. Please try again.';
const TOO_LARGE = 'The request body is too large (16 KB at most).';
const UNSUPPORTED = 'Send the request as JSON (Content-Type: application/json) or as a form.';

const testApp = testAppForFile();

const post = (
  app: TestApp['app'],
  path: string,
  init: { headers: Record<string, string>; body: string },
) => Promise.resolve(app.request(`${ORIGIN}${path}`, { method: 'POST', ...init }));

async function expectFormPage(
  response: Response,
  status: number,
  message: string,
  heading: 'Join' | 'Sign in',
) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.getSetCookie()).toEqual([]);
  const html = await response.text();
  expect(headingOf(html)).toMatch(heading === 'Join' ? /^Join .+ free$/ : /^Sign in to /);
  expect(html).toContain(`role="alert">${message}</p>`);
  return html;
}

const signupFields = (email = uniqueEmail('form')) =>
  new URLSearchParams({
    email,
    password: 'form-password-123',
    dateOfBirth: dobYearsAgo(30),
    acceptTerms: 'on',
  }).toString();

describe('a malformed multipart form', () => {
  it.each([
    ['a boundary that is not the one declared', 'multipart/form-data; boundary=declared'],
    ['no boundary at all', 'multipart/form-data'],
  ])('with %s gets the sign-up page and the message (400)', async (_, contentType) => {
    const body =
      '--other\r\nContent-Disposition: form-data; name="email"\r\n\r\na@example.com\r\n--other--\r\n';
    const response = await post(testApp.app, signupApiPath(), {
      headers: { 'content-type': contentType },
      body,
    });
    await expectFormPage(response, 400, UNREADABLE, 'Join');
  });

  it('to sign-in gets the sign-in page', async () => {
    const response = await post(testApp.app, signinApiPath(), {
      headers: { 'content-type': 'multipart/form-data; boundary=declared' },
      body: '--other--\r\n',
    });
    await expectFormPage(response, 400, UNREADABLE, 'Sign in');
  });
});

describe('a form post from another site', () => {
  it('gets the form page with the message (403) and creates nothing', async () => {
    const email = uniqueEmail('csrf');
    const response = await post(testApp.app, signupApiPath(), {
      headers: { 'content-type': FORM_TYPE, origin: 'https://evil.example' },
      body: signupFields(email),
    });
    await expectFormPage(response, 403, CROSS_SITE, 'Join');
  });

  it('answers a script sending JSON with JSON, as before', async () => {
    const response = await post(testApp.app, signupApiPath(), {
      headers: { 'content-type': JSON_TYPE, origin: 'https://evil.example' },
      body: JSON.stringify(signupBody()),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: CROSS_SITE });
  });
});

describe('a form body over 16 KB', () => {
  it.each([
    [signupApiPath(), 'Join'],
    [signinApiPath(), 'Sign in'],
  ] as const)('posted to %s gets its form page with the message (413)', async (path, heading) => {
    const response = await post(testApp.app, path, {
      headers: { 'content-type': FORM_TYPE },
      body: `email=${'x'.repeat(20 * 1024)}`,
    });
    await expectFormPage(response, 413, TOO_LARGE, heading);
  });
});

describe('a form sent as text/plain (enctype="text/plain")', () => {
  it('gets the form page with the message (415) when a browser navigates', async () => {
    const response = await post(testApp.app, signupApiPath(), {
      headers: {
        'content-type': 'text/plain',
        'sec-fetch-mode': 'navigate',
        accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
      },
      body: 'email=a@example.com\r\n',
    });
    await expectFormPage(response, 415, UNSUPPORTED, 'Join');
  });

  it('answers a script with JSON (415)', async () => {
    const response = await post(testApp.app, signupApiPath(), {
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ error: UNSUPPORTED });
  });
});

describe('a form post over the rate limit', () => {
  it('gets the sign-up page with the message, Retry-After and the email kept (429)', async () => {
    const limited = await makeTestApp({
      rateLimits: limitsWith({ signupPerIp: { points: 1, duration: 60 } }),
    });
    try {
      const form = (email: string) =>
        post(limited.app, signupApiPath(), {
          headers: { 'content-type': FORM_TYPE },
          body: signupFields(email),
        });
      expect((await form(uniqueEmail('first'))).status).toBe(303);
      const email = uniqueEmail('second');
      const response = await form(email);
      expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      const html = await expectFormPage(
        response,
        429,
        'Too many attempts. Please wait 1 minute and try again.',
        'Join',
      );
      expect(html).toContain(`name="email" value="${email}"`);
      expect(html).not.toContain('form-password-123');
    } finally {
      await limited.remove();
    }
  });
});

describe('a form post while password hashing is at capacity', () => {
  let pool: HashingPool;
  let busyApp: TestApp;
  beforeAll(async () => {
    // Two requests at once must overlap in the pool's one thread: a hash of about 50 ms (2^14)
    // rather than the suite's 3 ms (2^10), whose hash can end before the second one arrives.
    process.env.PASSWORD_HASH_COST = String(2 ** 14);
    pool = createHashingPool({ threads: 1, maxWaitMs: 0 });
    busyApp = await makeTestApp({ hashing: pool });
  });
  afterAll(async () => {
    process.env.PASSWORD_HASH_COST = String(TEST_PASSWORD_HASH_COST);
    await busyApp.remove();
    await pool.close();
  });

  it('gets the sign-in page with the message and Retry-After (503)', async () => {
    const email = uniqueEmail('busy');
    const signup = await post(busyApp.app, signupApiPath(), {
      headers: { 'content-type': FORM_TYPE },
      body: signupFields(email),
    });
    expect(signup.status).toBe(303);
    const signin = () =>
      post(busyApp.app, signinApiPath(), {
        headers: { 'content-type': FORM_TYPE },
        body: new URLSearchParams({ email, password: 'form-password-123' }).toString(),
      });
    const responses = await Promise.all([signin(), signin()]);
    expect(responses.map((response) => response.status).sort()).toEqual([303, 503]);
    const busy = responses.find((response) => response.status === 503)!;
    // One hash ahead, well under a second: the page says when to try again, as Retry-After does.
    expect(busy.headers.get('retry-after')).toBe('1');
    const html = await expectFormPage(
      busy,
      503,
      'The server is busy right now. Please try again in 1 second.',
      'Sign in',
    );
    expect(html).toContain(`name="email" value="${email}"`);
  });
});
