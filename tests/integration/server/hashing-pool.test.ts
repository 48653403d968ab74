// Password hashing has threads of its own: while sign-ups keep it busy, pages and the rest of the
// API still answer. The pool takes a hash while its expected wait (the hashes ahead × the measured
// time of one ÷ the threads) is under a bound, and refuses the rest at once (503 with Retry-After:
// when its turn is expected, turns one hash apart), instead of letting them pile up.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHashingPool,
  HashingBusy,
  type HashingPool,
  type HashingPoolSettings,
} from '../../../server/auth/hashing-pool.ts';
import {
  accountIn,
  accountsIn,
  cookieHeader,
  makeTestApp,
  ORIGIN,
  postForm,
  postJson,
  sessionTokenOf,
  signupBody,
  dobYearsAgo,
  limitsWith,
  uniqueEmail,
  testAppsForEachTest,
} from '../../helpers/api.ts';
import { withFixtureContent } from '../../helpers/pages.ts';
import { meApiPath, signinApiPath, signupApiPath } from '../../../core/paths.ts';

// Refused form posts come back as their pages, which read the compiled content.
withFixtureContent();

// The production cost (64 MiB, about 150 ms a hash here): the point is a pool kept busy.
process.env.PASSWORD_HASH_COST = String(2 ** 16);

const busy = (seconds: number) =>
  `The server is busy right now. Please try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;

const pools: HashingPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});
// Registered after the pools' hook: the apps are removed first (hooks run last-in, first-out).
const apps = testAppsForEachTest();

async function appWithPool(
  settings: HashingPoolSettings,
  options: Parameters<typeof makeTestApp>[0] = {},
) {
  const pool = createHashingPool(settings);
  pools.push(pool);
  const testApp = await apps.open({ ...options, hashing: pool });
  return { ...testApp, pool };
}

/** Starts a request and records when it is answered, relative to the others. */
function tracked<T>(order: string[], name: string, request: Promise<T>): Promise<T> {
  return request.then((response) => {
    order.push(name);
    return response;
  });
}

describe('while sign-ups keep the hashing pool busy', () => {
  it(`pages, ${meApiPath()} and file reads are answered before the queued hashes finish`, async () => {
    const { app, pool } = await appWithPool({ threads: 1 });
    const member = await postJson(app, signupApiPath(), signupBody());
    const token = sessionTokenOf(member);

    const order: string[] = [];
    const signups = Array.from({ length: 8 }, (_, index) =>
      tracked(order, `signup ${index}`, postJson(app, signupApiPath(), signupBody())),
    );
    // Wait until the pool has taken them all: one hashing, seven waiting.
    while (pool.load().running + pool.load().queued < 8) await new Promise((r) => setImmediate(r));

    // Async file reads run on libuv's threadpool, where scrypt used to run four at a time.
    const page = await tracked(order, 'GET /', Promise.resolve(app.request(`${ORIGIN}/`)));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1>Localboard</h1>');
    const me = await tracked(
      order,
      `GET ${meApiPath()}`,
      Promise.resolve(app.request(`${ORIGIN}${meApiPath()}`, { headers: cookieHeader(token) })),
    );
    expect(me.status).toBe(200);
    await tracked(order, 'readFile', readFile(join(import.meta.dirname, 'hashing-pool.test.ts')));
    const stillHashing = pool.load().running + pool.load().queued;

    const responses = await Promise.all(signups);
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(201));
    // One thread hashes one password at a time, so the reads came in after one or two sign-ups
    // at most. (With scrypt on the threadpool, four hashes ran ahead of each read.)
    expect(order.indexOf('GET /')).toBeLessThanOrEqual(2);
    expect(order.indexOf('readFile')).toBeLessThanOrEqual(3);
    expect(stillHashing).toBeGreaterThanOrEqual(4);
  });
});

describe('when a hash would wait longer than the bound', () => {
  // A hash (64 MiB) counted as 1 s until one has been measured, and these sign-ups all reach the
  // pool before the first hash is done: one hashes, four wait (1 to 4 s ahead), the rest would
  // wait 5 s or more, over the bound of 4.5 s.
  const settings = { threads: 1, expectedMsPerMiB: 1000 / 64, maxWaitMs: 4500 };

  it('answers 503 at once, with turns one hash apart in Retry-After, and stores nothing', async () => {
    const testApp = await appWithPool(settings);
    const { app } = testApp;
    const bodies = Array.from({ length: 10 }, () => signupBody());
    const responses = await Promise.all(bodies.map((body) => postJson(app, signupApiPath(), body)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 503)).toHaveLength(5);
    const turns: number[] = [];
    for (const [index, response] of responses.entries()) {
      const email = bodies[index]!.email as string;
      if (response.status === 201) {
        expect(await accountIn(testApp, email)).toBeDefined();
        continue;
      }
      const seconds = Number(response.headers.get('retry-after'));
      turns.push(seconds);
      // The message names the wait Retry-After gives.
      expect(await response.json()).toEqual({ error: busy(seconds) });
      expect(response.headers.getSetCookie()).toEqual([]);
      expect(await accountIn(testApp, email)).toBeUndefined();
    }
    // Room for the first refused one is expected in 0.5 s (rounded up to 1), and each next one a
    // hash later: they do not all come back in the same second.
    expect(turns.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });

  it('gives back the rate limits a refused sign-up counted: trying again is not "too many"', async () => {
    const { app, pool } = await appWithPool(settings, {
      rateLimits: limitsWith({
        signupPerIp: { points: 1, duration: 3600 },
        signupPerEmail: { points: 1, duration: 3600 },
      }),
    });
    // Five hashes take the thread and the queue (5 s of expected wait).
    const job = { password: 'x', salt: Buffer.alloc(16), keyLength: 32, N: 2 ** 16, r: 8, p: 1 };
    const held = Array.from({ length: 5 }, () => pool.scrypt(job));
    const body = signupBody();
    const refused = await postJson(app, signupApiPath(), body);
    expect(refused.status).toBe(503);
    await Promise.all(held);
    // The same client and email again, with a limit of one each: the 503 counted for nothing.
    expect((await postJson(app, signupApiPath(), body)).status).toBe(201);
    expect((await postJson(app, signupApiPath(), signupBody())).status).toBe(429);
  });

  it('answers a sign-in too with 503, and it counts as no failed attempt', async () => {
    const { app } = await appWithPool({ threads: 1, maxWaitMs: 0 });
    const email = uniqueEmail('busy');
    expect((await postJson(app, signupApiPath(), signupBody({ email }))).status).toBe(201);
    const attempts = await Promise.all(
      Array.from({ length: 4 }, () =>
        postJson(app, signinApiPath(), { email, password: 'correct horse battery staple' }),
      ),
    );
    expect(attempts.map((response) => response.status).sort()).toEqual([200, 503, 503, 503]);
    // Nothing was held against the account: the member signs in again at once.
    expect(
      (await postJson(app, signinApiPath(), { email, password: 'correct horse battery staple' }))
        .status,
    ).toBe(200);
  });

  it('a sign-in turned away as busy is no try on the account from a new browser', async () => {
    // Two tries from new browsers close the account to them: 503s must not count as tries.
    const rateLimits = limitsWith({
      signinPerAccountFromNewBrowsers: { points: 2, duration: 900 },
    });
    const { app } = await appWithPool({ threads: 1, maxWaitMs: 0 }, { rateLimits });
    const email = uniqueEmail('busy-new-browser');
    expect((await postJson(app, signupApiPath(), signupBody({ email }))).status).toBe(201);
    const signin = () =>
      postJson(app, signinApiPath(), { email, password: 'correct horse battery staple' });
    // Each round: two at once, one hashed and one turned away. Were the 503s counted, the second
    // round would already find the account closed (429).
    for (let round = 0; round < 3; round += 1) {
      const attempts = await Promise.all([signin(), signin()]);
      expect(attempts.map((response) => response.status).sort()).toEqual([200, 503]);
    }
  });

  it('answers a form post with the sign-up page, the wait, and what was typed', async () => {
    // 0: a hash that cannot start at once is refused.
    const testApp = await appWithPool({ threads: 1, maxWaitMs: 0 });
    const { app } = testApp;
    const fields = (email: string) => ({
      email,
      password: 'form-password-123',
      dateOfBirth: dobYearsAgo(30),
      acceptTerms: 'on',
    });
    const emails = [uniqueEmail('form-busy'), uniqueEmail('form-busy')];
    const responses = await Promise.all(
      emails.map((email) => postForm(app, signupApiPath(), fields(email))),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([303, 503]);
    const refused = responses.findIndex((response) => response.status === 503);
    const busyPage = responses[refused]!;
    expect(busyPage.headers.get('content-type')).toMatch(/^text\/html/);
    // One hash ahead (200 ms, as counted before any was measured): try again in a second.
    expect(busyPage.headers.get('retry-after')).toBe('1');
    const html = await busyPage.text();
    expect(html).toContain(
      'role="alert">The server is busy right now. Please try again in 1 second.</p>',
    );
    expect(html).toContain(`name="email" value="${emails[refused]}"`);
    expect(html).not.toContain('form-password-123');
    expect((await accountsIn(testApp)).map((account) => account.email)).toEqual([
      emails[1 - refused],
    ]);
  });
});

describe('the pool on its own', () => {
  const job = { password: 'x', salt: Buffer.alloc(16), keyLength: 32, N: 2 ** 14, r: 8, p: 1 };

  it('admits by the expected wait, spreads the turns of the refused, and then measures', async () => {
    // 2 s a hash (16 MiB) until measured, 21 s of wait at most: one hashes and ten wait (2 to
    // 20 s ahead). The refused are told to come back when room is expected (in 1 s), then a hash
    // apart (3, 5, … s), until the turns reach the bound beyond that (22 s); past it, anywhere in
    // that span.
    const pool = createHashingPool({ threads: 1, expectedMsPerMiB: 2000 / 16, maxWaitMs: 21_000 });
    pools.push(pool);
    const began = performance.now();
    const answers = Array.from({ length: 25 }, () =>
      pool.scrypt(job).then(
        (key) => key.length,
        (error: unknown) => error,
      ),
    );
    expect(pool.load()).toMatchObject({ running: 1, queued: 10 });
    const settled = await Promise.all(answers);
    expect(settled.slice(0, 11)).toEqual(Array(11).fill(32));
    const refused = settled.slice(11);
    expect(refused.every((error) => error instanceof HashingBusy)).toBe(true);
    const turns = refused.map((error) => (error as HashingBusy).retryAfterSeconds);
    expect(turns.slice(0, 11)).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21]);
    for (const turn of turns.slice(11)) expect(turn).toBeGreaterThanOrEqual(1);
    for (const turn of turns.slice(11)) expect(turn).toBeLessThanOrEqual(22);
    // Ten hashes were measured (not the thread's first: its time includes the thread's start-up).
    // The estimate is now their running average, each weighing a fifth: what is left of the guess,
    // plus what they took, each at most what this test saw pass, however busy the machine (here
    // tens of ms a hash: far below the 2 s guessed).
    const tookAtMost = performance.now() - began;
    const guessLeft = (2000 / 16) * 0.8 ** 10;
    const load = pool.load();
    expect(load).toMatchObject({ running: 0, queued: 0, waitMs: 0 });
    expect(load.msPerMiB).toBeGreaterThanOrEqual(guessLeft);
    expect(load.msPerMiB).toBeLessThanOrEqual(guessLeft + (1 - 0.8 ** 10) * (tookAtMost / 16));
  });
});

describe('the default pool', () => {
  it('queues a burst of 8 sign-ups rather than refusing any', async () => {
    // A pool of its own with the default settings (threads, bound, a hash's guessed time), not the
    // process's: in a Vitest worker that one was measured by the files before this one at their
    // cost of 2^10, where a hash's 2 ms weigh little beside a niced thread's wait for a core. On a
    // loaded machine that counted 30–90 ms a MiB, 2–6 s for one of this file's 64 MiB hashes, and
    // the burst was refused from its third or fourth sign-up on (503). The 8 reach this pool
    // within a fraction of a second, before either thread has answered a second hash (a thread's
    // first is not measured), so it counts each at the default guess, however busy the machine.
    const { app } = await appWithPool({});
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => postJson(app, signupApiPath(), signupBody())),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(201));
  });
});
