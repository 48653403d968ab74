// Failed sign-ins slow the one who fails, not the account's owner. Ten wrong passwords used to
// lock the real owner out for 15 minutes, right password included; now a client that keeps
// failing on an account waits longer after each failure, while the owner, signing in from
// another address or from a browser they signed in from before, gets straight in. These tests
// are about that per-client backoff; the bound on failures per account from new browsers, which
// also keeps out an owner on a new browser after 10 of them, is guessing-per-account.test.ts's.
// On PostgreSQL the backoff holds across two instances on one database (docs/product.md
// section 12).
import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from '../../../server/auth/rate-limits.ts';
import {
  GENEROUS_LIMITS,
  PASSWORD,
  postJson,
  sessionTokenOf,
  setCookies,
  signupBody,
  uniqueEmail,
  testAppsForEachTest,
} from '../../helpers/api.ts';
import { onPostgres } from '../../helpers/test-store.ts';
import { signinApiPath, signupApiPath } from '../../../core/paths.ts';

const WRONG_CREDENTIALS = 'Email or password is incorrect.';
const DEVICE_COOKIE = 'lb_device';

// The production sign-in limits, except the per-address one and the per-account one for new
// browsers, which other tests cover.
const SIGNIN_LIMITS: RateLimitSettings = {
  ...GENEROUS_LIMITS,
  signinPerEmail: DEFAULT_RATE_LIMITS.signinPerEmail,
  signinPerClientAndEmail: DEFAULT_RATE_LIMITS.signinPerClientAndEmail,
};
// An account under attack after 3 failures: a client's third failure then makes it wait 4 s,
// long enough for the next request to find it still waiting on a busy machine.
const UNDER_ATTACK_SOON: RateLimitSettings = {
  ...SIGNIN_LIMITS,
  signinPerEmail: { points: 3, duration: 15 * 60 },
};

const apps = testAppsForEachTest();

/** An app behind one proxy, so each test client is an X-Forwarded-For address. */
async function appWithMember(rateLimits = SIGNIN_LIMITS) {
  const testApp = await apps.open({ trustProxy: 1, rateLimits });
  const email = uniqueEmail('owner');
  const signup = await postJson(testApp.app, signupApiPath(), signupBody({ email }), {
    'x-forwarded-for': '198.51.100.1',
  });
  expect(signup.status).toBe(201);
  const signin = (password: string, address: string, headers: Record<string, string> = {}) =>
    postJson(
      testApp.app,
      signinApiPath(),
      { email, password },
      { 'x-forwarded-for': address, ...headers },
    );
  // Another instance of the app on the same database, and sign-in there.
  const signinElsewhere = async (rateLimitsThere = rateLimits) => {
    const other = await apps.openAgain(testApp, { trustProxy: 1, rateLimits: rateLimitsThere });
    return (password: string, address: string, headers: Record<string, string> = {}) =>
      postJson(
        other.app,
        signinApiPath(),
        { email, password },
        { 'x-forwarded-for': address, ...headers },
      );
  };
  return { ...testApp, email, signup, signin, signinElsewhere };
}

const deviceCookieOf = (response: Response) =>
  setCookies(response).find((cookie) => cookie.name === DEVICE_COOKIE);

async function expectWait(response: Response, atMostSeconds: number) {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(atMostSeconds);
  expect(((await response.json()) as { error: string }).error).toMatch(/^Too many attempts\./);
  expect(response.headers.getSetCookie()).toEqual([]);
}

const ATTACKER = '203.0.113.66';
const OWNER_ELSEWHERE = '192.0.2.20';

describe('ten wrong passwords for an account', () => {
  it('do not keep its owner out: the right password from another address signs in', async () => {
    const { signin } = await appWithMember();
    for (let attempt = 1; attempt <= 10; attempt++) {
      const wrong = await signin(`guess-${attempt}-wrong`, ATTACKER);
      // A client's first five failures are free; the sixth makes it wait before the next try.
      if (attempt <= 6) {
        expect(wrong.status).toBe(401);
        expect(await wrong.json()).toEqual({ error: WRONG_CREDENTIALS });
      } else {
        expect(wrong.status).toBe(429);
      }
    }
    const owner = await signin(PASSWORD, OWNER_ELSEWHERE);
    expect(owner.status).toBe(200);
    expect(sessionTokenOf(owner)).toBeTruthy();
  });

  it.runIf(onPostgres())(
    'slow the client that made them however they are spread over two instances',
    async () => {
      const { signin, signinElsewhere } = await appWithMember();
      const elsewhere = await signinElsewhere();
      const statuses: number[] = [];
      for (let attempt = 1; attempt <= 6; attempt++)
        statuses.push(
          (await (attempt % 2 ? signin : elsewhere)(`guess-${attempt}-x`, ATTACKER)).status,
        );
      // Five free failures, the sixth made it wait: on the instance that saw it and on the other.
      expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
      await expectWait(await signin(PASSWORD, ATTACKER), 1);
      await expectWait(await elsewhere(PASSWORD, ATTACKER), 1);
      // The owner elsewhere is not held back, on either instance.
      expect((await elsewhere(PASSWORD, OWNER_ELSEWHERE)).status).toBe(200);
      expect((await signin(PASSWORD, OWNER_ELSEWHERE)).status).toBe(200);
    },
  );

  it('spread over ten addresses, still let the owner in from an eleventh', async () => {
    const { signin } = await appWithMember();
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await signin(`guess-${attempt}-wrong`, `203.0.113.${attempt}`)).status).toBe(401);
    }
    expect((await signin(PASSWORD, OWNER_ELSEWHERE)).status).toBe(200);
  });

  it('slow the client that made them, even when it then has the right password', async () => {
    const { signin } = await appWithMember();
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await signin(`guess-${attempt}-wrong`, ATTACKER)).status).toBe(401);
    }
    // The sixth failure makes this client wait a second before its next try…
    expect((await signin('guess-6-wrong', ATTACKER)).status).toBe(401);
    await expectWait(await signin(PASSWORD, ATTACKER), 1);
    // …and once it has waited, the next failure makes it wait two.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await signin('guess-7-wrong', ATTACKER)).status).toBe(401);
    await expectWait(await signin(PASSWORD, ATTACKER), 2);
  });

  it('once the account is under attack, leave a failing client no free tries', async () => {
    const { signin } = await appWithMember();
    // Ten addresses, one failure each: the account has had its ten.
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await signin(`guess-${attempt}-wrong`, `203.0.113.${attempt}`)).status).toBe(401);
    }
    // A client that has failed before must wait after its next failure at once…
    expect((await signin('guess-11-wrong', '203.0.113.1')).status).toBe(401);
    await expectWait(await signin('guess-12-wrong', '203.0.113.1'), 2);
    // …while a client that has not failed yet still gets its try.
    expect((await signin('guess-13-wrong', '203.0.113.99')).status).toBe(401);
  });
});

describe('a browser the owner signed in from before', () => {
  it('signs in even from the address the attacker uses (one household, one NAT)', async () => {
    const { signin, signup } = await appWithMember(UNDER_ATTACK_SOON);
    // Signing up marked this browser as the owner's: an HttpOnly cookie sent only to the API.
    const device = deviceCookieOf(signup);
    expect(device?.value).toMatch(/^[\w-]{40,}$/);
    expect(device?.attributes.get('httponly')).toBe(true);
    expect(device?.attributes.get('path')).toBe('/api');
    expect(device?.attributes.get('samesite')).toBe('Strict');

    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 6; attempt++) {
      statuses.push((await signin(`guess-${attempt}-x`, ATTACKER)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    await expectWait(await signin(PASSWORD, ATTACKER), 4);

    const owner = await signin(PASSWORD, ATTACKER, { cookie: `${DEVICE_COOKIE}=${device!.value}` });
    expect(owner.status).toBe(200);
    // The browser is already known: no new device cookie.
    expect(deviceCookieOf(owner)).toBeUndefined();
  });

  it('counts for its own account only', async () => {
    const first = await appWithMember(UNDER_ATTACK_SOON);
    const device = deviceCookieOf(first.signup)!;
    const otherEmail = uniqueEmail('other');
    const other = await postJson(first.app, signupApiPath(), signupBody({ email: otherEmail }));
    expect(other.status).toBe(201);
    const signinOther = (password: string) =>
      postJson(
        first.app,
        signinApiPath(),
        { email: otherEmail, password },
        { 'x-forwarded-for': ATTACKER, cookie: `${DEVICE_COOKIE}=${device.value}` },
      );
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await signinOther(`guess-${attempt}-x`)).status).toBe(401);
    }
    await expectWait(await signinOther(PASSWORD), 4);
  });

  it('is slowed by its own failures like any client', async () => {
    const { signin, signup } = await appWithMember(UNDER_ATTACK_SOON);
    const cookie = { cookie: `${DEVICE_COOKIE}=${deviceCookieOf(signup)!.value}` };
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await signin(`guess-${attempt}-x`, ATTACKER, cookie)).status).toBe(401);
    }
    await expectWait(await signin(PASSWORD, ATTACKER, cookie), 4);
    // The same address without that browser's cookie is another client.
    expect((await signin(PASSWORD, ATTACKER)).status).toBe(200);
  });
});

describe('the right password', () => {
  it('clears the client’s own failures', async () => {
    const { signin } = await appWithMember();
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await signin(`typo-${attempt}-x`, OWNER_ELSEWHERE)).status).toBe(401);
    }
    expect((await signin(PASSWORD, OWNER_ELSEWHERE)).status).toBe(200);
    // Five free tries again.
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await signin(`typo-${attempt}-y`, OWNER_ELSEWHERE)).status).toBe(401);
    }
  });
});

describe('an email with no account', () => {
  it('is slowed exactly like one that has an account, so the answers tell nothing', async () => {
    const { app } = await appWithMember();
    const nobody = uniqueEmail('nobody');
    const attempts: number[] = [];
    for (let attempt = 1; attempt <= 7; attempt++) {
      const response = await postJson(
        app,
        signinApiPath(),
        { email: nobody, password: `guess-${attempt}-x` },
        { 'x-forwarded-for': ATTACKER },
      );
      attempts.push(response.status);
    }
    expect(attempts).toEqual([401, 401, 401, 401, 401, 401, 429]);
  });
});
