// A member's saved searches in Download my data, and gone with Delete my account (docs/product.md
// sections 8 and 11).
import { beforeAll, expect, test } from 'vitest';
import { cookieHeader, ORIGIN, postForm } from '../../helpers/api.ts';
import { makeMember, type TestMember } from '../../helpers/posting.ts';
import { searchFixtureForFile } from '../../helpers/search-fixture.ts';
import { accountDataApiPath } from '../../../core/paths.ts';
import { deleteAccountOf } from '../../helpers/member-data.ts';
import { storedRow } from '../../helpers/stored-rows.ts';

const fixture = searchFixtureForFile();
let member: TestMember;
beforeAll(async () => {
  member = await makeMember(fixture);
  for (const query of ['q=chess&state=New+York', 'seeks=w4m'])
    expect(
      (
        await postForm(
          fixture.app,
          `/api/saved-searches?${query}`,
          { query },
          cookieHeader(member.session),
        )
      ).status,
    ).toBe(303);
});

test('Download my data lists each saved search with its link and when it was last mailed', async () => {
  const response = await fixture.app.request(`${ORIGIN}${accountDataApiPath()}`, {
    headers: cookieHeader(member.session),
  });
  expect(response.status).toBe(200);
  const file = (await response.json()) as {
    about: string;
    savedSearches: { search: string; url: string; savedAt: string; lastMailedAt: null }[];
  };
  expect(file.about).toContain('your saved searches');
  expect(file.savedSearches).toEqual([
    {
      search: '“chess”, in New York',
      url: expect.stringMatching(/\/search\?q=chess&state=New\+York$/),
      savedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      lastMailedAt: null,
    },
    expect.objectContaining({ lastMailedAt: null }),
  ]);
  // Nothing of how a digest is unsubscribed (the link works without signing in).
  expect(JSON.stringify(file)).not.toMatch(/unsubscribe/i);
});

test('Delete my account deletes its saved searches', async () => {
  const before = await storedRow<{ n: number }>(
    fixture,
    'SELECT count(*) AS n FROM saved_searches WHERE account_id = ?',
    member.accountId,
  );
  expect(Number(before!.n)).toBe(2);
  const deleted = await deleteAccountOf(fixture, member, { form: true });
  expect(deleted.status).toBe(303);
  const after = await storedRow<{ n: number }>(
    fixture,
    'SELECT count(*) AS n FROM saved_searches WHERE account_id = ?',
    member.accountId,
  );
  expect(Number(after!.n)).toBe(0);
});
