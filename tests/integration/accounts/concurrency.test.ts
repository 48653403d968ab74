// Sign-ups at the same moment: many distinct ones all succeed, and a race on one email stores it
// once (the unique index decides, not the "is it taken?" look-up before hashing). The same through
// two instances of the server on one database (on PostgreSQL, in the postgres suite): no two
// sign-ups take one id, and none ends in a 500.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  accountsIn,
  makeTestApp,
  openTestApp,
  postJson,
  rowsIn,
  sessionsOf,
  signupBody,
  type TestApp,
  uniqueEmail,
} from '../../helpers/api.ts';
import { onPostgres } from '../../helpers/test-store.ts';
import { signupApiPath } from '../../../core/paths.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const DUPLICATE = 'An account with this email already exists. Sign in instead.';

let testApp: TestApp;
beforeEach(async () => {
  // Password hashing refuses what would wait more than 10 s by default, as counted before any hash
  // was measured (hashing-pool.test.ts); these tests are about what is stored under a race, so
  // every sign-up gets a place in the queue.
  testApp = await makeTestApp({ hashing: { maxWaitMs: 10 * 60_000 } });
});
afterEach(() => testApp.remove());

describe('parallel sign-ups', () => {
  it('answers 201 to 200 distinct sign-ups sent at once and stores each email once', async () => {
    const emails = Array.from({ length: 200 }, () => uniqueEmail('crowd'));
    const responses = await Promise.all(
      emails.map((email) => postJson(testApp.app, signupApiPath(), signupBody({ email }))),
    );
    expect(responses.map((response) => response.status)).toEqual(emails.map(() => 201));

    const stored = (await accountsIn(testApp)).map((account) => account.email);
    expect(stored).toHaveLength(200);
    expect([...stored].sort()).toEqual([...emails].sort());
    expect(await rowsIn(testApp, 'sessions')).toBe(200);
  });

  it.each([2, 10])(
    'stores one account when the same email is sent %i times at once',
    async (copies) => {
      const email = uniqueEmail('race');
      // Different cases and spacing normalise to the same address.
      const typed = (index: number) => (index % 2 === 0 ? email : `  ${email.toUpperCase()} `);
      const responses = await Promise.all(
        Array.from({ length: copies }, (_, index) =>
          postJson(testApp.app, signupApiPath(), signupBody({ email: typed(index) })),
        ),
      );

      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, ...Array.from({ length: copies - 1 }, () => 409)]);
      for (const response of responses.filter((each) => each.status === 409)) {
        expect(await response.json()).toEqual({ error: DUPLICATE, field: 'email' });
        expect(response.headers.getSetCookie()).toEqual([]);
      }
      expect((await accountsIn(testApp)).map((account) => account.email)).toEqual([email]);
      expect(await sessionsOf(testApp, email)).toBe(1);
    },
  );
});

// Several instances share a database on PostgreSQL only; a SQLite file has one server. (Two apps
// on one file in one process could wait for each other synchronously: a test artifact.)
describe.runIf(onPostgres())('sign-ups at once on two instances of one database', () => {
  let second: TestApp;
  beforeEach(async () => {
    second = await openTestApp(testApp.dir, { hashing: { maxWaitMs: 10 * 60_000 } });
  });
  afterEach(() => second.close());

  it('one email on both: one 201 and one 409, round after round, never a 500', async () => {
    for (let round = 0; round < 10; round++) {
      const email = uniqueEmail('two-instances');
      const responses = await Promise.all(
        [testApp, second].map((instance) =>
          postJson(instance.app, signupApiPath(), signupBody({ email })),
        ),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
      expect(await sessionsOf(testApp, email)).toBe(1);
    }
    expect(await rowsIn(testApp, 'accounts')).toBe(10);
  });

  it('different emails on both: every one 201, each with an id of its own', async () => {
    const emails = Array.from({ length: 40 }, () => uniqueEmail('two-instances'));
    const responses = await Promise.all(
      emails.map((email, index) =>
        postJson((index % 2 === 0 ? testApp : second).app, signupApiPath(), signupBody({ email })),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(emails.map(() => 201));
    const ids = await storedRows<{ id: number }>(testApp, 'SELECT id FROM accounts ORDER BY id');
    expect(ids.map((row) => row.id)).toEqual(emails.map((_, index) => index + 1));
  });
});
