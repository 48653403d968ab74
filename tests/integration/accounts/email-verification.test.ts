// Email verification: the link mailed after sign-up (single use, 24 hours, stored hashed), the
// /verify page and its button, the /account page and its "Resend the link" form, and the way to
// sign in and back for a page that needs a member. In-process, mail in a temp outbox.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { VERIFY_LINK_HOURS } from '../../../server/accounts/email-links.ts';
import {
  cookieHeader,
  FORM_TYPE,
  limitsWith,
  makeTestApp,
  ORIGIN,
  PASSWORD,
  postForm,
  postJson,
  sessionTokenOf,
  signupBody,
  uniqueEmail,
} from '../../helpers/api.ts';
import { linkToken, mailsTo } from '../../helpers/mail.ts';
import { bannerOf, formOf, headingOf, testAppOnFixtureContent } from '../../helpers/pages.ts';
import { privatePage, textOf } from '../../helpers/pages.ts';
import {
  accountPath,
  forgotPath,
  meApiPath,
  resetPath,
  signinApiPath,
  signupApiPath,
  verifyApiPath,
  verifyPath,
  verifyResendApiPath,
} from '../../../core/paths.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const t = testAppOnFixtureContent();
// A test that moves the clock on (a link's expiry) puts it back after.
afterEach(() => {
  vi.useRealTimers();
});

const get = (path: string, token?: string) =>
  Promise.resolve(t.app.request(`${ORIGIN}${path}`, { headers: token ? cookieHeader(token) : {} }));

/** Signs up and returns the session and the verification link's token from the mail. */
async function signUp(email = uniqueEmail()) {
  const response = await postJson(t.app, signupApiPath(), signupBody({ email }));
  expect(response.status).toBe(201);
  await t.mailer.settled();
  const mails = mailsTo(t.outboxDir, email);
  expect(mails).toHaveLength(1);
  return { email, session: sessionTokenOf(response), link: linkToken(mails[0]!, verifyPath()) };
}

describe('the verification mail', () => {
  test('is sent after sign-up, with a full link in its plain text and an HTML part', async () => {
    const { email, link } = await signUp();
    const [mail] = mailsTo(t.outboxDir, email);
    expect(mail!.subject).toBe('Verify your email for Localboard');
    expect(mail!.from).toContain('no-reply@localhost');
    expect(mail!.text).toContain(`http://localhost/verify?token=${link}`);
    expect(mail!.text).toContain('expires in 24 hours');
    expect(mail!.html).toContain(`href="http://localhost/verify?token=${link}"`);
    expect(link).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // No other address than the member's own anywhere in the message.
    const addresses = mail!.raw.match(/[\w.+-]+@[\w.-]+\.\w+/g) ?? [];
    expect(new Set(addresses.filter((address) => !address.endsWith('@localhost')))).toEqual(
      new Set([email]),
    );
  });

  test('keeps only the hash of the token in the database', async () => {
    const { link } = await signUp();
    const rows = await storedRows<{
      token_hash: Buffer;
      purpose: string;
      expires_at: string;
      created_at: string;
    }>(t, 'SELECT token_hash, purpose, expires_at, created_at FROM email_tokens');
    const mine = rows.find((row) =>
      row.token_hash.equals(createHash('sha256').update(link).digest()),
    );
    expect(mine?.purpose).toBe('verify');
    const hours = (Date.parse(mine!.expires_at) - Date.parse(mine!.created_at)) / 3_600_000;
    expect(hours).toBe(24);
    expect(JSON.stringify(rows)).not.toContain(link);
  });

  test('is sent after the no-JavaScript sign-up form too', async () => {
    const email = uniqueEmail('form');
    const response = await postForm(t.app, signupApiPath(), {
      ...(signupBody({ email }) as Record<string, string>),
      acceptTerms: 'on',
    });
    expect(response.status).toBe(303);
    await t.mailer.settled();
    expect(mailsTo(t.outboxDir, email)).toHaveLength(1);
  });
});

describe('/verify', () => {
  test('shows a Verify my email button; only pressing it verifies; the account says so', async () => {
    const { session, link } = await signUp();
    const page = await get(`/verify?token=${link}`);
    const html = await privatePage(page, 'Verify your email');
    expect(formOf(html, verifyApiPath())?.attributes.method).toBe('post');
    expect(html).toContain(`<input type="hidden" name="token" value="${link}"/>`);
    expect(html).toContain('>Verify my email</button>');
    // Opening the page (as a mail scanner would) verifies nothing.
    expect(await (await get(accountPath(), session)).text()).toContain('Not verified yet');

    const verified = await postForm(t.app, verifyApiPath(), { token: link });
    expect(verified.status).toBe(200);
    expect(headingOf(await verified.text())).toBe('Your email is verified');
    const account = await (await get(accountPath(), session)).text();
    expect(textOf(account)).toContain('Email status Verified');
    expect(account).not.toContain('Resend the link');
    const me = await get(meApiPath(), session);
    expect((await me.json()) as unknown).toMatchObject({ emailVerified: true });
  });

  test('works once: the link used again says so (410), on the page and from the API', async () => {
    const { link } = await signUp();
    expect((await postJson(t.app, verifyApiPath(), { token: link })).status).toBe(200);
    const again = await postForm(t.app, verifyApiPath(), { token: link });
    expect(again.status).toBe(410);
    expect(headingOf(await again.text())).toBe('This link was already used');
    const json = await postJson(t.app, verifyApiPath(), { token: link });
    expect(json.status).toBe(410);
    expect(await json.json()).toEqual({
      error: 'This link was already used. Each link works once.',
    });
    expect(headingOf(await (await get(`/verify?token=${link}`)).text())).toBe(
      'This link was already used',
    );
  });

  test('an expired link says it has expired and verifies nothing', async () => {
    const { session, link } = await signUp();
    expireTokens();
    const page = await get(`/verify?token=${link}`);
    expect(headingOf(await page.text())).toBe('This link has expired');
    const posted = await postForm(t.app, verifyApiPath(), { token: link });
    expect(posted.status).toBe(410);
    expect(headingOf(await posted.text())).toBe('This link has expired');
    expect(await (await get(accountPath(), session)).text()).toContain('Not verified yet');
  });

  test.each([
    ['no token', verifyPath()],
    ['a made-up token', `/verify?token=${'A'.repeat(43)}`],
    ['a short token', '/verify?token=abc'],
    ['a token of another purpose shape', `/verify?token=${'%00'.repeat(10)}`],
  ])('%s: "This link is not valid"', async (_label, path) => {
    const page = await get(path);
    expect(page.status).toBe(200);
    expect(headingOf(await page.text())).toBe('This link is not valid');
  });
});

describe('/account', () => {
  test('signed out: sent to sign in, and back after signing in', async () => {
    const page = await get(accountPath());
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/signin?next=%2Faccount');

    const signinPage = await get('/signin?next=%2Faccount');
    expect(signinPage.headers.get('cache-control')).toBe('no-store');
    expect(await signinPage.text()).toContain(
      '<input type="hidden" name="next" value="/account"/>',
    );

    const { email } = await signUp();
    const signedIn = await postForm(t.app, signinApiPath(), {
      email,
      password: PASSWORD,
      next: accountPath(),
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(accountPath());
    const json = await postJson(t.app, signinApiPath(), {
      email,
      password: PASSWORD,
      next: accountPath(),
    });
    expect(await json.json()).toEqual({ redirectUrl: accountPath() });
  });

  test.each([
    'https://elsewhere.example/',
    '//elsewhere.example/',
    '/\\elsewhere.example',
    'account',
  ])('never sends the browser to another site after signing in (next=%s)', async (next) => {
    const { email } = await signUp();
    const signedIn = await postForm(t.app, signinApiPath(), { email, password: PASSWORD, next });
    expect(signedIn.headers.get('location')).toBe('/');
    const page = await get(`/signin?next=${encodeURIComponent(next)}`);
    expect(await page.text()).not.toContain('name="next"');
  });

  test('a refused sign-in keeps where to go back to', async () => {
    const refused = await postForm(t.app, signinApiPath(), {
      email: uniqueEmail(),
      password: 'not the password',
      next: accountPath(),
    });
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain('<input type="hidden" name="next" value="/account"/>');
  });

  test('shows the email, not verified, and Resend the link sends a new working link', async () => {
    const { email, session, link } = await signUp();
    const page = await get(accountPath(), session);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain(`<dd>${email}</dd>`);
    expect(html).toContain('Not verified yet');
    expect(formOf(html, verifyResendApiPath())?.attributes.method).toBe('post');

    const resent = await t.app.request(`${ORIGIN}${verifyResendApiPath()}`, {
      method: 'POST',
      headers: { ...cookieHeader(session), 'content-type': FORM_TYPE },
      body: '',
    });
    expect(resent.status).toBe(303);
    expect(resent.headers.get('location')).toBe('/account?sent=1');
    expect(bannerOf(await (await get('/account?sent=1', session)).text())).toBe(
      `We have sent a new link to ${email}. It works once, for 24 hours.`,
    );
    await t.mailer.settled();
    const mails = mailsTo(t.outboxDir, email);
    expect(mails).toHaveLength(2);
    const second = linkToken(mails[1]!, verifyPath());
    expect(second).not.toBe(link);
    expect((await postJson(t.app, verifyApiPath(), { token: second })).status).toBe(200);
    // Verified: nothing more to resend.
    const json = await postJson(t.app, verifyResendApiPath(), {}, cookieHeader(session));
    expect(json.status).toBe(409);
    expect(await json.json()).toEqual({ error: 'Your email address is already verified.' });
  });

  test('Resend the link signed out: sign in first (form), 401 (JSON)', async () => {
    const form = await postForm(t.app, verifyResendApiPath(), {});
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/signin?next=%2Faccount');
    const json = await postJson(t.app, verifyResendApiPath(), {});
    expect(json.status).toBe(401);
    expect(await json.json()).toEqual({ error: 'You are not signed in.' });
  });

  test('Resend the link is rate-limited per member: the account page says to wait (429)', async () => {
    const limited = await makeTestApp({
      rateLimits: limitsWith({ linkPerEmail: { points: 2, duration: 3600 } }),
    });
    try {
      const response = await postJson(limited.app, signupApiPath(), signupBody());
      const session = sessionTokenOf(response);
      const resend = () =>
        limited.app.request(`${ORIGIN}${verifyResendApiPath()}`, {
          method: 'POST',
          headers: { ...cookieHeader(session), 'content-type': FORM_TYPE },
          body: '',
        });
      expect((await resend()).status).toBe(303);
      expect((await resend()).status).toBe(303);
      const refused = await resend();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      const html = await refused.text();
      expect(headingOf(html)).toBe('Your account');
      expect(bannerOf(html)).toMatch(
        /^Too many attempts\. Please wait \d+ minutes? and try again\.$/,
      );
    } finally {
      limited.remove();
    }
  });
});

describe('pages rendered on request', () => {
  test('are not served from the static site and never cached', async () => {
    for (const path of [forgotPath(), verifyPath(), resetPath()]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toContain('<meta name="robots" content="noindex, nofollow"/>');
    }
  });
});

/** The links' day passes: the server's clock moved on a minute past their expiry. */
function expireTokens() {
  const expired = Date.now() + (VERIFY_LINK_HOURS * 60 + 1) * 60_000;
  vi.useFakeTimers({ toFake: ['Date'], now: expired });
}
