// Password reset by emailed link: /forgot answers the same whether or not an address has an
// account; /reset?token=… (single use, 1 hour, stored hashed) sets a new password with the sign-up
// rules and revokes every session. In-process, mail in a temp outbox.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { RESET_LINK_HOURS } from '../../../server/accounts/email-links.ts';
import {
  cookieHeader,
  limitsWith,
  makeTestApp,
  ORIGIN,
  PASSWORD,
  postForm,
  postJson,
  sessionsOf,
  sessionTokenOf,
  signupBody,
  uniqueEmail,
} from '../../helpers/api.ts';
import { createHashingPool } from '../../../server/auth/hashing-pool.ts';
import { linkToken, mailsTo } from '../../helpers/mail.ts';
import { bannerOf, formOf, headingOf, testAppOnFixtureContent } from '../../helpers/pages.ts';
import { privatePage } from '../../helpers/pages.ts';
import { TEST_PASSWORD_HASH_COST } from '../../helpers/password-cost.ts';
import {
  forgotApiPath,
  forgotPath,
  meApiPath,
  resetApiPath,
  resetPath,
  signinApiPath,
  signupApiPath,
} from '../../../core/paths.ts';
import { storedRow } from '../../helpers/stored-rows.ts';

const FORGOT_ANSWER =
  "If an account exists for that address, we've sent a link to choose a new password. It works once, for 1 hour.";
const NEW_PASSWORD = 'a brand new passphrase';

const t = testAppOnFixtureContent();
// A test that moves the clock on (a link's expiry) puts it back after.
afterEach(() => {
  vi.useRealTimers();
});

const get = (path: string) => Promise.resolve(t.app.request(`${ORIGIN}${path}`));

async function member() {
  const email = uniqueEmail();
  const response = await postJson(t.app, signupApiPath(), signupBody({ email }));
  expect(response.status).toBe(201);
  return { email, session: sessionTokenOf(response) };
}

/** Asks for a reset link and returns its token from the mail. */
async function resetLinkFor(email: string): Promise<string> {
  const resetMails = () =>
    mailsTo(t.outboxDir, email).filter((mail) => mail.subject.includes('password'));
  const before = resetMails().length;
  expect((await postForm(t.app, forgotApiPath(), { email })).status).toBe(303);
  await t.mailer.settled();
  const mails = resetMails();
  expect(mails).toHaveLength(before + 1);
  return linkToken(mails.at(-1)!, resetPath());
}

describe('/forgot', () => {
  test('a form with a labelled email field, rendered on request', async () => {
    const page = await get(forgotPath());
    const html = await privatePage(page, 'Reset your password');
    expect(formOf(html, forgotApiPath())?.attributes.method).toBe('post');
    const input = /<label for="forgot-email">Email<\/label>(<input id="forgot-email"[^>]*>)/.exec(
      html,
    )?.[1];
    for (const attribute of ['name="email"', 'type="email"', 'autoComplete="email"', 'required=""'])
      expect(input).toContain(attribute);
  });

  test('answers the same for an address with an account and one without', async () => {
    const { email } = await member();
    const unknown = uniqueEmail('nobody');
    const known = await postForm(t.app, forgotApiPath(), { email });
    const notKnown = await postForm(t.app, forgotApiPath(), { email: unknown });
    for (const response of [known, notKnown]) {
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/forgot?sent=1');
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    const jsonKnown = await postJson(t.app, forgotApiPath(), { email });
    const jsonUnknown = await postJson(t.app, forgotApiPath(), { email: unknown });
    expect(jsonKnown.status).toBe(200);
    expect(jsonUnknown.status).toBe(200);
    expect(await jsonKnown.json()).toEqual({ message: FORGOT_ANSWER });
    expect(await jsonUnknown.json()).toEqual({ message: FORGOT_ANSWER });
    expect(bannerOf(await (await get('/forgot?sent=1')).text())).toBe(FORGOT_ANSWER);

    await t.mailer.settled();
    expect(mailsTo(t.outboxDir, unknown)).toEqual([]);
    const mails = mailsTo(t.outboxDir, email).filter((mail) => mail.subject.includes('password'));
    expect(mails).toHaveLength(2);
    expect(mails[0]!.subject).toBe('Reset your Localboard password');
    const token = linkToken(mails[0]!, resetPath());
    expect(mails[0]!.text).toContain(`http://localhost/reset?token=${token}`);
    expect(mails[0]!.text).toContain('expires in 1 hour');
    expect(mails[0]!.html).toContain(`href="http://localhost/reset?token=${token}"`);
  });

  test('a bad address is shown again on the form with its message, what was typed kept', async () => {
    const response = await postForm(t.app, forgotApiPath(), { email: 'not-an-address' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(bannerOf(html)).toBe('Enter a valid email address, like name@example.com.');
    expect(html).toContain('value="not-an-address"');
  });

  test('is rate-limited per address and per client, the same for unknown addresses', async () => {
    const limited = await makeTestApp({
      rateLimits: limitsWith({
        linkPerEmail: { points: 2, duration: 3600 },
        linkPerIp: { points: 5, duration: 900 },
      }),
    });
    try {
      const ask = (email: string) => postForm(limited.app, forgotApiPath(), { email });
      const someone = uniqueEmail('nobody');
      expect((await ask(someone)).status).toBe(303);
      expect((await ask(someone)).status).toBe(303);
      const perEmail = await ask(someone);
      expect(perEmail.status).toBe(429);
      expect(bannerOf(await perEmail.text())).toMatch(/^Too many attempts/);
      expect((await ask(uniqueEmail())).status).toBe(303);
      expect((await ask(uniqueEmail())).status).toBe(303);
      // Five from this client so far: the next one is refused whatever the address.
      const perIp = await ask(uniqueEmail());
      expect(perIp.status).toBe(429);
      expect(perIp.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(headingOf(await perIp.text())).toBe('Reset your password');
    } finally {
      limited.remove();
    }
  });
});

describe('/reset', () => {
  test('sets the new password: it signs in, the old one fails, every session is gone', async () => {
    const { email, session } = await member();
    const second = sessionTokenOf(
      await postJson(t.app, signinApiPath(), { email, password: PASSWORD }),
    );
    expect(await sessionsOf(t, email)).toBe(2);
    const token = await resetLinkFor(email);

    const page = await get(`/reset?token=${token}`);
    const html = await page.text();
    expect(headingOf(html)).toBe('Choose a new password');
    expect(html).toContain(`<input type="hidden" name="token" value="${token}"/>`);
    const input =
      /<label for="reset-password">New password<\/label>(<input id="reset-password"[^>]*>)/.exec(
        html,
      )?.[1];
    for (const attribute of ['name="password"', 'type="password"', 'autoComplete="new-password"'])
      expect(input).toContain(attribute);

    const reset = await postForm(
      t.app,
      resetApiPath(),
      { token, password: NEW_PASSWORD },
      cookieHeader(session),
    );
    expect(reset.status).toBe(303);
    expect(reset.headers.get('location')).toBe('/reset?done=1');
    expect(reset.headers.getSetCookie().join()).toMatch(/lb_session=;/);
    expect(headingOf(await (await get('/reset?done=1')).text())).toBe(
      'Your password has been changed',
    );

    expect(await sessionsOf(t, email)).toBe(0);
    for (const old of [session, second])
      expect(
        (await t.app.request(`${ORIGIN}${meApiPath()}`, { headers: cookieHeader(old) })).status,
      ).toBe(401);
    expect((await postJson(t.app, signinApiPath(), { email, password: PASSWORD })).status).toBe(
      401,
    );
    expect((await postJson(t.app, signinApiPath(), { email, password: NEW_PASSWORD })).status).toBe(
      200,
    );
  });

  test('works once, and a newer link uses up the older ones', async () => {
    const { email } = await member();
    const first = await resetLinkFor(email);
    const second = await resetLinkFor(email);
    expect(
      (await postJson(t.app, resetApiPath(), { token: second, password: NEW_PASSWORD })).status,
    ).toBe(200);
    for (const token of [first, second]) {
      const again = await postForm(t.app, resetApiPath(), {
        token,
        password: 'yet another password',
      });
      expect(again.status).toBe(410);
      expect(headingOf(await again.text())).toBe('This link was already used');
      expect(headingOf(await (await get(`/reset?token=${token}`)).text())).toBe(
        'This link was already used',
      );
    }
    expect((await postJson(t.app, signinApiPath(), { email, password: NEW_PASSWORD })).status).toBe(
      200,
    );
  });

  test('an expired link (after 1 hour) changes nothing', async () => {
    const { email } = await member();
    const token = await resetLinkFor(email);
    const row = await storedRow<{ created_at: string; expires_at: string }>(
      t,
      "SELECT created_at, expires_at FROM email_tokens WHERE purpose = 'reset' ORDER BY id DESC LIMIT 1",
    );
    expect((Date.parse(row!.expires_at) - Date.parse(row!.created_at)) / 60_000).toBe(60);
    // The hour passes: the server's clock moved on a minute past the link's expiry.
    const expired = Date.now() + (RESET_LINK_HOURS * 60 + 1) * 60_000;
    vi.useFakeTimers({ toFake: ['Date'], now: expired });
    expect(headingOf(await (await get(`/reset?token=${token}`)).text())).toBe(
      'This link has expired',
    );
    const json = await postJson(t.app, resetApiPath(), { token, password: NEW_PASSWORD });
    expect(json.status).toBe(410);
    expect(await json.json()).toEqual({
      error: 'This link has expired. Ask for a new one.',
      field: 'token',
    });
    expect((await postJson(t.app, signinApiPath(), { email, password: PASSWORD })).status).toBe(
      200,
    );
  });

  test('a password that breaks the sign-up rules: the form again with the message, never the password', async () => {
    const { email } = await member();
    const token = await resetLinkFor(email);
    const response = await postForm(t.app, resetApiPath(), { token, password: 'short' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(bannerOf(html)).toBe('Password must be at least 8 characters.');
    expect(html).toContain(`<input type="hidden" name="token" value="${token}"/>`);
    expect(html).not.toContain('short"');
    // The link still works.
    expect((await postJson(t.app, resetApiPath(), { token, password: NEW_PASSWORD })).status).toBe(
      200,
    );
  });
});

describe('/reset while password hashing is at capacity', () => {
  test('the reset form again with the message and Retry-After (503); the link still works', async () => {
    // One reset must find the pool's one thread busy. Two resets sent at once raced: the pool
    // refuses by the wait it expects (the running hash's measured cost less its time so far), and
    // on a loaded machine the first hash could outrun its estimate before the second arrived, so
    // both were taken. So a hash whose expected time is about 400 ms at the hashes' measured
    // speed holds the thread while one reset arrives (refused, Retry-After 1), and the other
    // comes once it is free.
    process.env.PASSWORD_HASH_COST = String(2 ** 14);
    const pool = createHashingPool({ threads: 1, maxWaitMs: 0 });
    const busy = await makeTestApp({ hashing: pool });
    try {
      const tokens: string[] = [];
      for (const email of [uniqueEmail('busy'), uniqueEmail('busy')]) {
        expect((await postJson(busy.app, signupApiPath(), signupBody({ email }))).status).toBe(201);
        expect((await postForm(busy.app, forgotApiPath(), { email })).status).toBe(303);
        await busy.mailer.settled();
        const mail = mailsTo(busy.outboxDir, email).find((m) => m.subject.includes('password'))!;
        tokens.push(linkToken(mail, resetPath()));
      }
      const reset = (token: string) =>
        postForm(busy.app, resetApiPath(), { token, password: NEW_PASSWORD });
      const holdMiB = 400 / pool.load().msPerMiB;
      const N = 2 ** Math.min(17, Math.max(12, Math.round(Math.log2(holdMiB * 1024))));
      const holding = pool.scrypt({
        ...{ password: 'holds the thread', salt: Buffer.alloc(16), keyLength: 64 },
        ...{ N, r: 8, p: 1 },
      });
      while (pool.load().running === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      const first = await reset(tokens[0]!);
      await holding;
      const responses = [first, await reset(tokens[1]!)];
      expect(responses.map((response) => response.status).sort()).toEqual([303, 503]);
      const refused = responses.find((response) => response.status === 503)!;
      expect(refused.headers.get('retry-after')).toBe('1');
      const html = await refused.text();
      expect(bannerOf(html)).toBe('The server is busy right now. Please try again in 1 second.');
      expect(headingOf(html)).toBe('Choose a new password');
      const token = tokens[responses.indexOf(refused)]!;
      expect(html).toContain(`<input type="hidden" name="token" value="${token}"/>`);
      expect(html).not.toContain(NEW_PASSWORD);
      expect(
        (await postJson(busy.app, resetApiPath(), { token, password: NEW_PASSWORD })).status,
      ).toBe(200);
    } finally {
      process.env.PASSWORD_HASH_COST = String(TEST_PASSWORD_HASH_COST);
      busy.remove();
      await pool.close();
    }
  });
});
