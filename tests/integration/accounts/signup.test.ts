// POST /api/signup: the success path as JSON and as a form post, the session cookie it sets, the
// row it stores, and the form page a refused form post answers with.
import { describe, expect, it } from 'vitest';
import {
  accountIn,
  accountsIn,
  dobYearsAgo,
  makeTestApp,
  postForm,
  postJson,
  sessionCookieOf,
  sessionsOf,
  signupBody,
  uniqueEmail,
  testAppForFile,
} from '../../helpers/api.ts';
import { bannerOf, withFixtureContent } from '../../helpers/pages.ts';
import { signupApiPath, successPath } from '../../../core/paths.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

// Refused form posts come back as their pages, which read the compiled content.
withFixtureContent();

const TERMS_MESSAGE = 'Confirm that you are 18 or older and accept the Terms.';
const UNDER_18_MESSAGE = 'You must be 18 or older to join.';
const THIRTY_DAYS = String(30 * 24 * 60 * 60);

const testApp = testAppForFile();

describe(`POST ${signupApiPath()} as JSON`, () => {
  it('answers 201 with the redirect to /success', async () => {
    const response = await postJson(testApp.app, signupApiPath(), signupBody());
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ redirectUrl: successPath() });
  });

  it('sets an HttpOnly, SameSite=Lax session cookie for the whole site, not Secure over http', async () => {
    const body = signupBody();
    const response = await postJson(testApp.app, signupApiPath(), body);
    expect(response.status).toBe(201);
    const cookie = sessionCookieOf(response);
    expect(cookie?.value).toMatch(/^[\w-]{40,}$/);
    expect(cookie?.attributes.get('httponly')).toBe(true);
    expect(cookie?.attributes.get('samesite')).toBe('Lax');
    expect(cookie?.attributes.get('path')).toBe('/');
    expect(cookie?.attributes.get('max-age')).toBe(THIRTY_DAYS);
    expect(cookie?.attributes.has('secure')).toBe(false);
    // The session is kept server-side, by the hash of the token only.
    expect(await sessionsOf(testApp, body.email as string)).toBe(1);
    const tokenHashes = await storedRows<{ token_hash: Buffer }>(
      testApp,
      'SELECT token_hash FROM sessions',
    );
    for (const { token_hash } of tokenHashes) {
      expect(token_hash.toString('base64url')).not.toBe(cookie?.value);
    }
  });

  it.each([
    ['with its own Origin', { origin: 'https://localhost' }],
    ['with no Origin', {}],
  ])('marks the cookie Secure when the request is https (%s)', async (_, headers) => {
    const response = await postJson(
      testApp.app,
      signupApiPath(),
      signupBody(),
      headers,
      'https://localhost',
    );
    expect(response.status).toBe(201);
    const cookie = sessionCookieOf(response);
    expect(cookie?.attributes.get('secure')).toBe(true);
    expect(cookie?.attributes.get('httponly')).toBe(true);
    expect(cookie?.attributes.get('samesite')).toBe('Lax');
  });

  it('trusts X-Forwarded-Proto for Secure only behind a proxy (trustProxy)', async () => {
    const proxied = await makeTestApp({ trustProxy: true });
    try {
      const headers = { 'x-forwarded-proto': 'https' };
      const behindProxy = await postJson(proxied.app, signupApiPath(), signupBody(), headers);
      expect(behindProxy.status).toBe(201);
      expect(sessionCookieOf(behindProxy)?.attributes.get('secure')).toBe(true);

      const direct = await postJson(testApp.app, signupApiPath(), signupBody(), headers);
      expect(direct.status).toBe(201);
      expect(sessionCookieOf(direct)?.attributes.has('secure')).toBe(false);
    } finally {
      proxied.remove();
    }
  });

  it('stores the email trimmed and lower-cased, a scrypt hash and the date of birth', async () => {
    const label = uniqueEmail('Mixed.Case');
    const typed = `  ${label.replace('@example.com', '@Example.COM').toUpperCase()}  `;
    const password = 'Sup3r secret passphrase!';
    const dateOfBirth = dobYearsAgo(40, 17);
    const response = await postJson(
      testApp.app,
      signupApiPath(),
      signupBody({ email: typed, password, dateOfBirth }),
    );
    expect(response.status).toBe(201);

    const normalised = label.toLowerCase();
    const row = await accountIn(testApp, normalised);
    expect(row).toBeDefined();
    expect(row?.date_of_birth).toBe(dateOfBirth);
    expect(row?.password_hash).toMatch(/^scrypt\$\d+\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(row?.password_hash).not.toContain(password);
    // Nowhere in the table as typed either.
    const everything = JSON.stringify(await accountsIn(testApp));
    expect(everything).not.toContain(password);
    expect(everything).not.toContain(typed.trim());
  });

  // The age check counts from the date at UTC−12, where the day begins last (age-check.test.ts).
  it('accepts someone who turns 18 today where the day began last', async () => {
    const dateOfBirth = dobYearsAgo(18, 0, new Date(Date.now() - 12 * 60 * 60 * 1000));
    const body = signupBody({ dateOfBirth });
    const response = await postJson(testApp.app, signupApiPath(), body);
    expect(response.status).toBe(201);
    expect((await accountIn(testApp, body.email as string))?.date_of_birth).toBe(dateOfBirth);
  });
});

describe(`POST ${signupApiPath()} as a form (no JavaScript)`, () => {
  const formFields = (overrides: Record<string, string> = {}) => ({
    email: uniqueEmail('form'),
    password: 'form-password-123',
    dateOfBirth: dobYearsAgo(25),
    acceptTerms: 'on',
    ...overrides,
  });

  it('answers 303 to /success, with the session cookie, and stores the account', async () => {
    const fields = formFields();
    const response = await postForm(testApp.app, signupApiPath(), fields);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(successPath());
    expect(sessionCookieOf(response)?.attributes.get('httponly')).toBe(true);
    expect((await accountIn(testApp, fields.email))?.date_of_birth).toBe(fields.dateOfBirth);
  });

  it('refuses a form without the terms box ticked: 400 page with the message, email kept, password never', async () => {
    const { acceptTerms: _, ...fields } = formFields({ password: 'never-echo-this-1' });
    const response = await postForm(testApp.app, signupApiPath(), fields);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(bannerOf(html)).toBe(TERMS_MESSAGE);
    expect(html).toContain(`name="email" value="${fields.email}"`);
    expect(html).toContain(`name="dateOfBirth" value="${fields.dateOfBirth}"`);
    expect(html).not.toContain('never-echo-this-1');
    expect(sessionCookieOf(response)).toBeUndefined();
    expect(await accountIn(testApp, fields.email)).toBeUndefined();
  });

  it('refuses a terms box with any other value than "on"', async () => {
    const fields = formFields({ acceptTerms: 'yes' });
    const response = await postForm(testApp.app, signupApiPath(), fields);
    expect(response.status).toBe(400);
    expect(bannerOf(await response.text())).toBe(TERMS_MESSAGE);
    expect(await accountIn(testApp, fields.email)).toBeUndefined();
  });

  it('refuses someone under 18 with the age message in the banner', async () => {
    const fields = formFields({ dateOfBirth: dobYearsAgo(17, 364), password: 'never-echo-this-2' });
    const response = await postForm(testApp.app, signupApiPath(), fields);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(bannerOf(html)).toBe(UNDER_18_MESSAGE);
    expect(html).toContain(`name="email" value="${fields.email}"`);
    expect(html).not.toContain('never-echo-this-2');
    expect(await accountIn(testApp, fields.email)).toBeUndefined();
  });

  it('escapes what was typed when it puts it back into the page', async () => {
    const email = '"><script>alert(1)</script>';
    const response = await postForm(testApp.app, signupApiPath(), formFields({ email }));
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('name="email" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  // What was typed goes back verbatim: `$&`, `` $` `` and `$'` are text, not replacement patterns.
  it.each(['x$`y', 'x$&y', "x$'y"])(
    'puts the typed email back verbatim, even with a $ pattern (%s)',
    async (email) => {
      const response = await postForm(testApp.app, signupApiPath(), formFields({ email }));
      expect(response.status).toBe(400);
      const html = await response.text();
      const escaped = email.replace(/&/g, '&amp;').replace(/'/g, '&#x27;');
      expect(html).toContain(`name="email" value="${escaped}"/>`);
      expect(html.match(/<!DOCTYPE/g)).toHaveLength(1);
    },
  );
});
