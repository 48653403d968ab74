// Password hashing has threads of its own: while sign-ups keep it busy, pages and the rest of the
// API still answer, and what the pool cannot take is refused at once (503 with Retry-After), not
// left to pile up.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHashingPool, type HashingPool } from '../../../server/auth/hashing-pool.ts';
import {
  cookieHeader,
  makeTestApp,
  ORIGIN,
  postForm,
  postJson,
  sessionTokenOf,
  signupBody,
  storedAccount,
  storedAccounts,
  dobYearsAgo,
  uniqueEmail,
  type TestApp,
} from '../../helpers/api.ts';
import { withFixtureContent } from '../../helpers/pages.ts';

// Refused form posts come back as their pages, which read the compiled content.
withFixtureContent();

// The production cost (64 MiB, about 150 ms a hash here): the point is a pool kept busy.
process.env.PASSWORD_HASH_COST = String(2 ** 16);

const BUSY = 'The server is busy right now. Please try again in a few seconds.';

const opened: TestApp[] = [];
const pools: HashingPool[] = [];
afterEach(async () => {
  for (const testApp of opened.splice(0)) testApp.remove();
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function appWithPool(threads: number, maxQueued: number) {
  const pool = createHashingPool({ threads, maxQueued });
  pools.push(pool);
  const testApp = makeTestApp({ hashing: pool });
  opened.push(testApp);
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
  it('pages, /api/me and file reads are answered before the queued hashes finish', async () => {
    const { app, pool } = appWithPool(1, 16);
    const member = await postJson(app, '/api/signup', signupBody());
    const token = sessionTokenOf(member);

    const order: string[] = [];
    const signups = Array.from({ length: 8 }, (_, index) =>
      tracked(order, `signup ${index}`, postJson(app, '/api/signup', signupBody())),
    );
    // Wait until the pool has taken them all: one hashing, seven waiting.
    while (pool.load().running + pool.load().queued < 8) await new Promise((r) => setImmediate(r));

    // Async file reads run on libuv's threadpool, where scrypt used to run four at a time.
    const page = await tracked(order, 'GET /', Promise.resolve(app.request(`${ORIGIN}/`)));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1>Localboard</h1>');
    const me = await tracked(
      order,
      'GET /api/me',
      Promise.resolve(app.request(`${ORIGIN}/api/me`, { headers: cookieHeader(token) })),
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

describe('when the queue is full', () => {
  it('answers 503 with Retry-After at once and stores nothing for those', async () => {
    const { app, dbPath } = appWithPool(1, 2);
    const bodies = Array.from({ length: 8 }, () => signupBody());
    const responses = await Promise.all(bodies.map((body) => postJson(app, '/api/signup', body)));
    const statuses = responses.map((response) => response.status);
    // One hashing and two waiting get through; the others are refused.
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 503)).toHaveLength(5);
    for (const [index, response] of responses.entries()) {
      const email = bodies[index]!.email as string;
      if (response.status === 201) {
        expect(storedAccount(dbPath, email)).toBeDefined();
        continue;
      }
      expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(await response.json()).toEqual({ error: BUSY });
      expect(response.headers.getSetCookie()).toEqual([]);
      expect(storedAccount(dbPath, email)).toBeUndefined();
    }
  });

  it('answers a sign-in too with 503, and it counts as no failed attempt', async () => {
    const { app } = appWithPool(1, 0);
    const email = uniqueEmail('busy');
    expect((await postJson(app, '/api/signup', signupBody({ email }))).status).toBe(201);
    const attempts = await Promise.all(
      Array.from({ length: 4 }, () =>
        postJson(app, '/api/signin', { email, password: 'correct horse battery staple' }),
      ),
    );
    expect(attempts.map((response) => response.status).sort()).toEqual([200, 503, 503, 503]);
    // Nothing was held against the account: the member signs in again at once.
    expect(
      (await postJson(app, '/api/signin', { email, password: 'correct horse battery staple' }))
        .status,
    ).toBe(200);
  });

  it('answers a form post with the sign-up page, the message and what was typed', async () => {
    const { app, dbPath } = appWithPool(1, 0);
    const fields = (email: string) => ({
      email,
      password: 'form-password-123',
      dateOfBirth: dobYearsAgo(30),
      acceptTerms: 'on',
    });
    const emails = [uniqueEmail('form-busy'), uniqueEmail('form-busy')];
    const responses = await Promise.all(
      emails.map((email) => postForm(app, '/api/signup', fields(email))),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([303, 503]);
    const refused = responses.findIndex((response) => response.status === 503);
    const busy = responses[refused]!;
    expect(busy.headers.get('content-type')).toMatch(/^text\/html/);
    expect(busy.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    const html = await busy.text();
    expect(html).toContain(`role="alert">${BUSY}</p>`);
    expect(html).toContain(`name="email" value="${emails[refused]}"`);
    expect(html).not.toContain('form-password-123');
    expect(storedAccounts(dbPath).map((account) => account.email)).toEqual([emails[1 - refused]]);
  });
});

describe('the default pool', () => {
  let testApp: TestApp;
  beforeAll(() => {
    testApp = makeTestApp();
  });
  afterAll(() => testApp.remove());

  it('queues a burst of 8 sign-ups rather than refusing any', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => postJson(testApp.app, '/api/signup', signupBody())),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(201));
  });
});
