// Saving a search and deleting it (docs/product.md section 11), as plain form posts without
// JavaScript and as JSON: "Email me new ads like these" on /search, at most 10, listed on /account
// with Delete; every refusal is the form's page again with the message.
import { describe, expect, test } from 'vitest';
import { cookieHeader, postForm, postJson } from '../../helpers/api.ts';
import { getPage } from '../../helpers/moderation.ts';
import { formOf } from '../../helpers/pages.ts';
import { deleteAccountOf, makeMember, type TestMember } from '../../helpers/posting.ts';
import { searchFixtureForFile } from '../../helpers/search-fixture.ts';
import { deleteSavedSearchApiPath, saveSearchApiPath } from '../../../core/paths.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const fixture = searchFixtureForFile();

const save = (member: TestMember | undefined, query: string, json = false) =>
  json
    ? postJson(
        fixture.app,
        saveSearchApiPath(''),
        { query },
        member ? cookieHeader(member.session) : {},
      )
    : postForm(
        fixture.app,
        saveSearchApiPath(query),
        { query },
        member ? cookieHeader(member.session) : {},
      );

const savedOf = (member: TestMember) =>
  storedRows<{ query: string; label: string; seen_day: string | null }>(
    fixture,
    'SELECT query, label, seen_day FROM saved_searches WHERE account_id = ? ORDER BY id',
    member.accountId,
  );

/** The delete form of a saved search, posted by `member`. */
const deleteAs = (member: TestMember, id: number) =>
  postForm(
    fixture.app,
    deleteSavedSearchApiPath(id),
    { savedSearchId: String(id) },
    cookieHeader(member.session),
  );

describe('saving a search', () => {
  test('a verified member saves the search on its page and finds it on /account', async () => {
    const member = await makeMember(fixture);
    const page = await (
      await getPage(fixture.app, '/search?q=hiking&state=California&sort=match', member.session)
    ).text();
    const saveForm = formOf(page, saveSearchApiPath('q=hiking&state=California'));
    expect(saveForm?.attributes.method).toBe('post');
    expect(page).toContain(
      '<input type="hidden" name="query" value="q=hiking&amp;state=California"/>',
    );
    expect(page).toContain('Email me new ads like these');
    expect(page).toContain('Get this search’s new ads by email, at most once a day.');

    const response = await save(member, 'q=hiking&state=California&sort=match');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/account?done=search-saved');
    // Stored normalized (no order, no page), with the newest ad matching it now.
    const newest = fixture
      .compiledAds()
      .filter((ad) => ad.state === 'California' && /hiking/i.test(`${ad.title} ${ad.description}`))
      .map((ad) => ad.postedAt.slice(0, 10))
      .sort()
      .at(-1);
    expect(await savedOf(member)).toEqual([
      { query: 'q=hiking&state=California', label: '“hiking”, in California', seen_day: newest },
    ]);
    // The same search again: still one.
    expect((await save(member, 'state=California&q=hiking')).status).toBe(303);
    expect(await savedOf(member)).toHaveLength(1);

    const account = await (
      await getPage(fixture.app, '/account?done=search-saved', member.session)
    ).text();
    expect(account).toContain(
      'Your search is saved. We email you its new ads, at most once a day.',
    );
    expect(account).toContain(
      '<a href="/search?q=hiking&amp;state=California">“hiking”, in California</a>',
    );
    expect(account).toMatch(/<form action="\/api\/saved-searches\/\d+\/delete" method="post">/);
    // The unsubscribe pages link to the list: /account#saved-searches.
    expect(account).toMatch(/<section [^>]*id="saved-searches"/);
  });

  test('signed out, unverified, an eleventh: the search page again with the message', async () => {
    const signedOut = await save(undefined, 'q=chess');
    expect(signedOut.status).toBe(401);
    const signedOutPage = await signedOut.text();
    expect(signedOutPage).toContain('You are not signed in.');
    // The search itself is shown again, with its results.
    expect(signedOutPage).toContain('<h1>Search ads</h1>');
    // At least one ad card: the class is what tells a result from the page's other links.
    expect(signedOutPage).toMatch(/class="ad-card__title"/);

    const unverified = await makeMember(fixture, { verified: false });
    const refused = await save(unverified, 'q=chess');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(
      'Please verify your email address before saving a search: open the link we emailed you.',
    );
    expect(await savedOf(unverified)).toEqual([]);

    const member = await makeMember(fixture);
    const queries = [
      'q=hiking',
      'q=coffee',
      'q=painting',
      'q=chess',
      'q=sailing',
      'q=baking',
      'q=jazz',
      'state=Florida',
      'state=New%20York',
      'seeks=w4w',
    ];
    for (const query of queries) expect((await save(member, query)).status).toBe(303);
    const eleventh = await save(member, 'state=California');
    expect(eleventh.status).toBe(409);
    const eleventhPage = await eleventh.text();
    expect(eleventhPage).toContain(
      'You can save up to 10 searches. Delete one on your account page to save this one.',
    );
    expect(eleventhPage).toContain('value="California" selected=""');
    expect(await savedOf(member)).toHaveLength(10);
    const json = await save(member, 'state=California', true);
    expect(json.status).toBe(409);
    expect(await json.json()).toEqual({
      error: 'You can save up to 10 searches. Delete one on your account page to save this one.',
    });
  });

  test('a bad search is refused; JSON saves answer the id', async () => {
    const member = await makeMember(fixture);
    const bad = await save(member, 'minAge=12', true);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'This search cannot be saved: correct it first.' });
    const saved = await save(member, 'seeks=m4w&minAge=30', true);
    expect(saved.status).toBe(201);
    const { id } = (await saved.json()) as { id: number };
    expect(await fixture.store.savedSearches.listOwned(member.accountId)).toEqual([
      expect.objectContaining({ id, query: 'seeks=m4w&minAge=30' }),
    ]);
  });
});

describe('deleting a saved search', () => {
  test('the member deletes their own; another’s or a gone one is not found', async () => {
    const member = await makeMember(fixture);
    const other = await makeMember(fixture);
    await save(member, 'q=jazz');
    const { id } = (await fixture.store.savedSearches.listOwned(member.accountId))[0]!;

    const notTheirs = await deleteAs(other, id);
    expect(notTheirs.status).toBe(404);
    expect(await notTheirs.text()).toContain('This saved search does not exist (any more).');
    expect(await savedOf(member)).toHaveLength(1);

    const deleted = await deleteAs(member, id);
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get('location')).toBe('/account?done=search-deleted');
    expect(await savedOf(member)).toEqual([]);
    const account = await (
      await getPage(fixture.app, '/account?done=search-deleted', member.session)
    ).text();
    expect(account).toContain(
      'Your saved search is deleted. We will not email you about it again.',
    );
    expect(account).toContain('No saved searches.');

    const again = await postJson(
      fixture.app,
      deleteSavedSearchApiPath(id),
      {},
      cookieHeader(member.session),
    );
    expect(again.status).toBe(404);
    const signedOut = await postJson(fixture.app, deleteSavedSearchApiPath(id), {});
    expect(signedOut.status).toBe(401);
  });

  test('deleting the account deletes its saved searches', async () => {
    const member = await makeMember(fixture);
    await save(member, 'q=coffee');
    await deleteAccountOf(fixture, member.accountId);
    expect(await savedOf(member)).toEqual([]);
  });
});
