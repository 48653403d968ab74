// Sign-ups at the same moment: many distinct ones all succeed, and a race on one email stores it
// once (the unique index decides, not the "is it taken?" look-up before hashing).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  countRows,
  makeTestApp,
  postJson,
  sessionCountFor,
  signupBody,
  storedAccounts,
  uniqueEmail,
  type TestApp,
} from '../../helpers/api.ts';

// Production hashes at 2^16; 2^14 keeps the suite quick and still exercises scrypt.
process.env.PASSWORD_HASH_COST = String(2 ** 14);

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
      emails.map((email) => postJson(testApp.app, '/api/signup', signupBody({ email }))),
    );
    expect(responses.map((response) => response.status)).toEqual(emails.map(() => 201));

    const stored = storedAccounts(testApp.dbPath).map((account) => account.email);
    expect(stored).toHaveLength(200);
    expect([...stored].sort()).toEqual([...emails].sort());
    expect(countRows(testApp.dbPath, 'sessions')).toBe(200);
  });

  it.each([2, 10])(
    'stores one account when the same email is sent %i times at once',
    async (copies) => {
      const email = uniqueEmail('race');
      // Different cases and spacing normalise to the same address.
      const typed = (index: number) => (index % 2 === 0 ? email : `  ${email.toUpperCase()} `);
      const responses = await Promise.all(
        Array.from({ length: copies }, (_, index) =>
          postJson(testApp.app, '/api/signup', signupBody({ email: typed(index) })),
        ),
      );

      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, ...Array.from({ length: copies - 1 }, () => 409)]);
      for (const response of responses.filter((each) => each.status === 409)) {
        expect(await response.json()).toEqual({ error: DUPLICATE, field: 'email' });
        expect(response.headers.getSetCookie()).toEqual([]);
      }
      expect(storedAccounts(testApp.dbPath).map((account) => account.email)).toEqual([email]);
      expect(sessionCountFor(testApp.dbPath, email)).toBe(1);
    },
  );
});
