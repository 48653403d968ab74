// The visitor's intent kept through sign-up (docs/product.md section 3): `next`, a path of this
// site, carried by /signin and /signup (rendered on request with it), by the sign-up post, by the
// verification link and by /verify, which leads there once the email is verified. Anything that
// is not a path of this site is dropped, never followed. In-process, mail in a temp outbox.
import { describe, expect, test } from 'vitest';
import {
  cookieHeader,
  ORIGIN,
  postForm,
  postJson,
  sessionTokenOf,
  signupBody,
  uniqueEmail,
} from '../../helpers/api.ts';
import { linkPath, linkToken, mailsTo } from '../../helpers/mail.ts';
import { bannerOf, headingOf, testAppOnFixtureContent } from '../../helpers/pages.ts';
import {
  meApiPath,
  signinPath,
  signupApiPath,
  signupPath,
  successPath,
  verifyApiPath,
  verifyPath,
} from '../../../core/paths.ts';

const t = testAppOnFixtureContent();
const REPLY = '/messages/new?ad=1001';

const get = (path: string, session?: string) =>
  Promise.resolve(
    t.app.request(`${ORIGIN}${path}`, { headers: session ? cookieHeader(session) : {} }),
  );

const signupFields = (email: string, next: string) => ({
  email,
  password: 'a long enough password',
  dateOfBirth: '1990-04-12',
  acceptTerms: 'on',
  next,
});

const hiddenNext = (html: string) =>
  /<input type="hidden" name="next" value="([^"]*)"\/>/.exec(html)?.[1]?.replace(/&amp;/g, '&');

async function verificationMail(email: string) {
  await t.mailer.settled();
  const [mail] = mailsTo(t.outboxDir, email);
  expect(mail).toBeDefined();
  return mail!;
}

describe('/signin and /signup with next', () => {
  test.each(['/signin', '/signup'])(
    '%s carries it in the form and in the link to the other',
    async (path) => {
      const response = await get(`${path}?next=${encodeURIComponent(REPLY)}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const html = await response.text();
      expect(hiddenNext(html)).toBe(REPLY);
      const other = path === signinPath() ? signupPath() : signinPath();
      expect(html).toContain(`href="${other}?next=${encodeURIComponent(REPLY)}"`);
    },
  );

  test.each(['//evil.example/x', 'https://evil.example/', '/\\evil.example'])(
    'drops %s: the page is the plain one, with no next',
    async (next) => {
      const response = await get(`/signup?next=${encodeURIComponent(next)}`);
      const html = await response.text();
      expect(hiddenNext(html)).toBeUndefined();
      expect(html).not.toContain('evil.example');
    },
  );
});

describe('signing up with next', () => {
  test('a form post goes on to next, and the verification link carries it', async () => {
    const email = uniqueEmail('intent');
    const response = await postForm(t.app, signupApiPath(), signupFields(email, REPLY));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(REPLY);
    const link = linkPath(await verificationMail(email), verifyPath());
    expect(new URL(link, ORIGIN).searchParams.get('next')).toBe(REPLY);
  });

  test('JSON (the dialog) is answered with next as the redirect', async () => {
    const email = uniqueEmail('intent-json');
    const response = await postJson(t.app, signupApiPath(), {
      ...signupBody({ email }),
      next: REPLY,
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ redirectUrl: REPLY });
  });

  test('a next of another site is dropped: /success, and a link without it', async () => {
    const email = uniqueEmail('intent-evil');
    const response = await postForm(t.app, signupApiPath(), signupFields(email, '//evil.example'));
    expect(response.headers.get('location')).toBe(successPath());
    const mail = await verificationMail(email);
    expect(mail.text).not.toContain('evil.example');
    expect(linkPath(mail, verifyPath())).toBe(`/verify?token=${linkToken(mail, verifyPath())}`);
  });

  test('a refused sign-up keeps next in the form shown again', async () => {
    const fields = {
      ...signupFields(uniqueEmail('intent-young'), REPLY),
      dateOfBirth: '2015-01-01',
    };
    const response = await postForm(t.app, signupApiPath(), fields);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(bannerOf(html)).toBe('You must be 18 or older to join.');
    expect(hiddenNext(html)).toBe(REPLY);
  });
});

describe('verifying with next', () => {
  test('/verify keeps next in its form; the button leads there, verified', async () => {
    const email = uniqueEmail('intent-verify');
    const signup = await postForm(t.app, signupApiPath(), signupFields(email, REPLY));
    const session = sessionTokenOf(signup);
    const mail = await verificationMail(email);
    const page = await get(linkPath(mail, verifyPath()), session);
    const html = await page.text();
    expect(headingOf(html)).toBe('Verify your email');
    expect(hiddenNext(html)).toBe(REPLY);

    const verified = await postForm(
      t.app,
      verifyApiPath(),
      { token: linkToken(mail, verifyPath()), next: REPLY },
      cookieHeader(session),
    );
    expect(verified.status).toBe(303);
    expect(verified.headers.get('location')).toBe(REPLY);
    const me = await (await get(meApiPath(), session)).json();
    expect(me.emailVerified).toBe(true);

    // The link again: already used, with the way on to where the member was going.
    const again = await (await get(linkPath(mail, verifyPath()), session)).text();
    expect(headingOf(again)).toBe('This link was already used');
    expect(again).toContain(`href="${REPLY.replace('&', '&amp;')}"`);
  });

  test('JSON is answered with next as the redirect; another site is never one', async () => {
    for (const [next, redirect] of [
      [REPLY, REPLY],
      ['https://evil.example/', undefined],
    ] as const) {
      const email = uniqueEmail('intent-verify-json');
      await postJson(t.app, signupApiPath(), signupBody({ email }));
      const token = linkToken(await verificationMail(email), verifyPath());
      const response = await postJson(t.app, verifyApiPath(), { token, next });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        verified: true,
        ...(redirect ? { redirectUrl: redirect } : {}),
      });
    }
  });
});
