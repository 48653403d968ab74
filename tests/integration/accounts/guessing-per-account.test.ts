// Guessing a password from many addresses is bounded per account (issue 21): failed sign-ins from
// browsers the account has not signed in from are counted together, whatever their addresses, and
// after 10 in 15 minutes such browsers are refused (429, Retry-After) for a wait that grows; an
// email with no account is answered exactly alike. The owner's known browser (its lb_device cookie)
// is never refused for them, and an owner on a new browser gets in through the emailed reset link,
// which makes that browser a known one. Delete my account, which asks for the password again,
// counts and refuses the same way. In-process; each client is an X-Forwarded-For address behind
// one trusted proxy, and each test builds its own app on a database of its own, so the counters
// start at zero. On PostgreSQL, guesses spread over two instances on one database are refused as
// soon as they would be on one (docs/product.md section 12).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from '../../../server/auth/rate-limits.ts';
import {
  GENEROUS_LIMITS,
  PASSWORD,
  postForm,
  postJson,
  sessionTokenOf,
  setCookies,
  signupBody,
  uniqueEmail,
  type TestApp,
  testAppsForEachTest,
} from '../../helpers/api.ts';
import { linkToken, mailsTo } from '../../helpers/mail.ts';
import { bannerOf, withFixtureContent } from '../../helpers/pages.ts';
import { onPostgres } from '../../helpers/test-store.ts';
import {
  deleteAccountApiPath,
  forgotApiPath,
  resetApiPath,
  resetPath,
  signinApiPath,
  signupApiPath,
} from '../../../core/paths.ts';
import { storedRow } from '../../helpers/stored-rows.ts';

// Refused form posts come back as their pages, which read the compiled content.
withFixtureContent();

const WRONG_CREDENTIALS = 'Email or password is incorrect.';
const CLOSED_FOR_15_MINUTES =
  'Too many attempts for this account. Please wait 15 minutes and try again, or use Forgot your password? to get a reset link.';
const DEVICE_COOKIE = 'lb_device';

/** Sign-in's production limits; sign-up and the links out of the way. */
const PRODUCTION_SIGNIN: RateLimitSettings = {
  ...GENEROUS_LIMITS,
  signinPerIp: DEFAULT_RATE_LIMITS.signinPerIp,
  signinPerEmail: DEFAULT_RATE_LIMITS.signinPerEmail,
  signinPerClientAndEmail: DEFAULT_RATE_LIMITS.signinPerClientAndEmail,
  signinPerAccountFromNewBrowsers: DEFAULT_RATE_LIMITS.signinPerAccountFromNewBrowsers,
};

const apps = testAppsForEachTest();
afterEach(async () => {
  vi.useRealTimers();
});

const from = (address: string, cookie?: string) => ({
  'x-forwarded-for': address,
  ...(cookie ? { cookie } : {}),
});

/** An app behind one proxy, with a member who signed up from 198.51.100.1 in their own browser. */
async function appWithOwner(rateLimits = PRODUCTION_SIGNIN) {
  const testApp = await apps.open({ trustProxy: 1, rateLimits });
  const email = uniqueEmail('owner');
  const signup = await postJson(
    testApp.app,
    signupApiPath(),
    signupBody({ email }),
    from('198.51.100.1'),
  );
  expect(signup.status).toBe(201);
  const device = setCookies(signup).find((cookie) => cookie.name === DEVICE_COOKIE)!.value;
  const signin = (who: string, password: string, address: string, cookie?: string) =>
    postJson(testApp.app, signinApiPath(), { email: who, password }, from(address, cookie));
  return { ...testApp, email, session: sessionTokenOf(signup), device, signin };
}

/** Another instance of `first`'s app on the same database: its `signin`. */
async function secondInstance(first: TestApp, rateLimits = PRODUCTION_SIGNIN) {
  const testApp = await apps.openAgain(first, { trustProxy: 1, rateLimits });
  return (who: string, password: string, address: string, cookie?: string) =>
    postJson(testApp.app, signinApiPath(), { email: who, password }, from(address, cookie));
}

const accountCount = async (testApp: TestApp, email: string) =>
  (
    await storedRow<{ n: number }>(
      testApp,
      'SELECT cast(count(*) as integer) AS n FROM accounts WHERE email = ?',
      email,
    )
  )?.n;

/** 20 wrong passwords for `email`, each from its own address: their statuses. */
async function guessFromTwentyAddresses(
  signin: (who: string, password: string, address: string) => Promise<Response>,
  email: string,
  octet = 0,
) {
  const answers: Response[] = [];
  for (let attempt = 1; attempt <= 20; attempt++)
    answers.push(await signin(email, `guess-${attempt}-wrong`, `203.0.${octet}.${attempt}`));
  return answers;
}

async function expectClosed(response: Response, minutes = 15) {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan((minutes - 1) * 60);
  expect(retryAfter).toBeLessThanOrEqual(minutes * 60);
  expect(response.headers.getSetCookie()).toEqual([]);
  return ((await response.json()) as { error: string }).error;
}

describe('twenty wrong passwords for one account from twenty addresses', () => {
  it('are refused from the 11th on: 429 with Retry-After and the way back by mail', async () => {
    const { signin, email } = await appWithOwner();
    const answers = await guessFromTwentyAddresses(signin, email);
    expect(answers.map((answer) => answer.status)).toEqual([
      ...Array<number>(10).fill(401),
      ...Array<number>(10).fill(429),
    ]);
    expect(await answers[9]!.json()).toEqual({ error: WRONG_CREDENTIALS });
    expect(await expectClosed(answers[10]!)).toBe(CLOSED_FOR_15_MINUTES);
    expect(await expectClosed(answers[19]!)).toBe(CLOSED_FOR_15_MINUTES);
    // The right password from yet another new browser waits too: nothing is checked.
    expect(await expectClosed(await signin(email, PASSWORD, '192.0.2.20'))).toBe(
      CLOSED_FOR_15_MINUTES,
    );
  });

  it.runIf(onPostgres())(
    'spread over two instances on one database, are refused from the 11th on all the same',
    async () => {
      const owner = await appWithOwner();
      const other = await secondInstance(owner);
      const either = (who: string, password: string, address: string) =>
        (Number(address.split('.').at(-1)) % 2 ? owner.signin : other)(who, password, address);
      const answers = await guessFromTwentyAddresses(either, owner.email);
      expect(answers.map((answer) => answer.status)).toEqual([
        ...Array<number>(10).fill(401),
        ...Array<number>(10).fill(429),
      ]);
      expect(await expectClosed(answers[10]!)).toBe(CLOSED_FOR_15_MINUTES);
      // Closed on both, to the right password too; the owner's known browser still gets in.
      await expectClosed(await owner.signin(owner.email, PASSWORD, '192.0.2.20'));
      await expectClosed(await other(owner.email, PASSWORD, '192.0.2.21'));
      const known = await other(
        owner.email,
        PASSWORD,
        '192.0.2.22',
        `${DEVICE_COOKIE}=${owner.device}`,
      );
      expect(known.status).toBe(200);
    },
  );

  it('a form post gets the sign-in page with the message and the email kept', async () => {
    const { app, signin, email } = await appWithOwner();
    await guessFromTwentyAddresses(signin, email);
    const response = await postForm(
      app,
      signinApiPath(),
      { email, password: 'typed-password-1' },
      from('192.0.2.21'),
    );
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    const html = await response.text();
    expect(bannerOf(html)).toBe(CLOSED_FOR_15_MINUTES);
    expect(html).toContain(`name="email" value="${email}"`);
    expect(html).not.toContain('typed-password-1');
  });

  it('never refuse the owner in a browser that signed in before, even from an attacker’s address', async () => {
    const { signin, email, device } = await appWithOwner();
    await guessFromTwentyAddresses(signin, email);
    const owner = await signin(email, PASSWORD, '203.0.0.20', `${DEVICE_COOKIE}=${device}`);
    expect(owner.status).toBe(200);
    expect(sessionTokenOf(owner)).toBeTruthy();
    // A browser that signed in since counts as the owner's too.
    const other = await signin(email, PASSWORD, '192.0.2.30', `${DEVICE_COOKIE}=${device}`);
    expect(other.status).toBe(200);
  });

  it('leave the owner on a new browser the reset link, after which that browser signs in', async () => {
    const { app, signin, email, outboxDir, mailer } = await appWithOwner();
    await guessFromTwentyAddresses(signin, email);
    const laptop = '192.0.2.40';
    await expectClosed(await signin(email, PASSWORD, laptop));
    expect((await postForm(app, forgotApiPath(), { email }, from(laptop))).status).toBe(303);
    await mailer.settled();
    const token = linkToken(mailsTo(outboxDir, email).at(-1)!, resetPath());
    const newPassword = 'a fresh and long passphrase';
    const reset = await postJson(
      app,
      resetApiPath(),
      { token, password: newPassword },
      from(laptop),
    );
    expect(reset.status).toBe(200);
    const device = setCookies(reset).find((cookie) => cookie.name === DEVICE_COOKIE);
    expect(device?.attributes.get('path')).toBe('/api');
    const signedIn = await signin(email, newPassword, laptop, `${DEVICE_COOKIE}=${device!.value}`);
    expect(signedIn.status).toBe(200);
    // Anyone else is still kept out until the wait is over.
    await expectClosed(await signin(email, newPassword, '203.0.0.99'));
  });
});

describe('an email with no account', () => {
  it('is counted and answered exactly as one with an account', async () => {
    const { signin, email } = await appWithOwner();
    const nobody = uniqueEmail('nobody');
    const known = await guessFromTwentyAddresses(signin, email, 1);
    const unknown = await guessFromTwentyAddresses(signin, nobody, 2);
    const answer = async (response: Response) => ({
      status: response.status,
      retryAfter: response.headers.get('retry-after') !== null,
      body: await response.text(),
    });
    expect(await Promise.all(unknown.map(answer))).toEqual(await Promise.all(known.map(answer)));
    expect(unknown[10]!.status).toBe(429);
  });

  it('is counted in its normalised form, as sign-in reads it', async () => {
    const { signin } = await appWithOwner();
    const nobody = uniqueEmail('nobody');
    const spellings = [nobody, nobody.toUpperCase(), `  ${nobody}  `];
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 11; attempt++)
      statuses.push(
        (await signin(spellings[attempt % 3]!, `guess-${attempt}-x`, `203.0.3.${attempt}`)).status,
      );
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('the wait', () => {
  // One-second windows: 3 failures, then a closure of 1 s, then one try, then 2 s.
  const FAST: RateLimitSettings = {
    ...PRODUCTION_SIGNIN,
    signinPerAccountFromNewBrowsers: { points: 3, duration: 1 },
  };

  it('grows: after a closure, one try, and the next closes it for twice as long', async () => {
    const { signin, email } = await appWithOwner(FAST);
    // The clock stands still while the guesses are made (on a busy machine four hashed sign-ins
    // can take longer than the one-second window) and moves 1.1 s at once for the wait: Date and
    // the timers that end a limiter's keys on SQLite (rate-limiter-flexible's memory store) are
    // faked; the window's real expiry is tested on both engines in tests/integration/store/.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    for (let attempt = 1; attempt <= 3; attempt++)
      expect((await signin(email, `guess-${attempt}-x`, `203.0.4.${attempt}`)).status).toBe(401);
    const first = await signin(email, 'guess-4-x', '203.0.4.4');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('1');
    vi.advanceTimersByTime(1100);
    expect((await signin(email, 'guess-5-x', '203.0.4.5')).status).toBe(401);
    const second = await signin(email, 'guess-6-x', '203.0.4.6');
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('2');
  });

  it('counts attempts sent at once as they begin: no burst gets past the tenth', async () => {
    const { signin, email } = await appWithOwner();
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, index) =>
        signin(email, `burst-${index}-x`, `203.0.5.${index + 1}`),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array<number>(10).fill(401), ...Array<number>(4).fill(429)]);
  });

  it.runIf(onPostgres())(
    'counts a burst sent to two instances at once as it begins: none gets past the tenth',
    async () => {
      const owner = await appWithOwner();
      const other = await secondInstance(owner);
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, index) =>
          (index % 2 ? owner.signin : other)(
            owner.email,
            `burst-${index}-x`,
            `203.0.9.${index + 1}`,
          ),
        ),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([...Array<number>(10).fill(401), ...Array<number>(6).fill(429)]);
    },
  );

  it('the owner knowing the password on a new browser does not count against the account', async () => {
    const { signin, email } = await appWithOwner();
    for (let round = 1; round <= 3; round++)
      expect((await signin(email, PASSWORD, `192.0.2.${50 + round}`)).status).toBe(200);
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 11; attempt++)
      statuses.push((await signin(email, `guess-${attempt}-x`, `203.0.6.${attempt}`)).status);
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
  });
});

describe('Delete my account, which asks for the password again', () => {
  const deleteAccount = (
    app: TestApp['app'],
    session: string,
    password: string,
    address: string,
    device?: string,
  ) =>
    postJson(
      app,
      deleteAccountApiPath(),
      { password },
      from(
        address,
        [`lb_session=${session}`, ...(device ? [`${DEVICE_COOKIE}=${device}`] : [])].join('; '),
      ),
    );

  it('is refused to a session on a new browser while the account is closed to them', async () => {
    const owner = await appWithOwner();
    const { app, signin, email, session } = owner;
    await guessFromTwentyAddresses(signin, email);
    const borrowed = await deleteAccount(app, session, PASSWORD, '203.0.7.1');
    expect(await expectClosed(borrowed)).toBe(CLOSED_FOR_15_MINUTES);
    expect(await accountCount(owner, email)).toBe(1);
  });

  it('counts a new browser’s wrong passwords with the account’s sign-in failures', async () => {
    const { app, signin, email, session } = await appWithOwner();
    for (let attempt = 1; attempt <= 10; attempt++) {
      const wrong = await deleteAccount(app, session, `guess-${attempt}-x`, `203.0.8.${attempt}`);
      expect(wrong.status).toBe(403);
    }
    await expectClosed(await signin(email, PASSWORD, '192.0.2.60'));
  });

  it('goes ahead in the owner’s known browser, whatever others did', async () => {
    const owner = await appWithOwner();
    const { app, signin, email, session, device } = owner;
    await guessFromTwentyAddresses(signin, email);
    const deleted = await deleteAccount(app, session, PASSWORD, '198.51.100.1', device);
    expect(deleted.status).toBe(200);
    expect(await accountCount(owner, email)).toBe(0);
  });
});
