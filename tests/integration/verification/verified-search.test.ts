// Verified members on the published site (docs/product.md sections 6 and 9): a verified member's
// ad carries its verification in the compiled content (the badge's words) and in the search index,
// so `/search?verified=1` (the "Members: Verified members only" filter), its feed and a saved
// search's label find only such ads; withdrawing, published again, takes it out.
import { expect, test } from 'vitest';
import { searchFeedTitle, parseSearchQuery } from '../../../core/search-query.ts';
import {
  publishMemberAd,
  searchFixtureForFile,
  searchResults,
} from '../../helpers/search-fixture.ts';

const fixture = searchFixtureForFile();

const search = (query: string) => searchResults(fixture, query);

/** The account verified as a moderator's approval leaves it (Real person: no photo ticked). */
async function verify(accountId: number) {
  const { store } = fixture;
  const at = new Date().toISOString();
  const id = await store.verifications.open({
    accountId,
    code: 'ACE47',
    codeHash: 'f'.repeat(64),
    pose: 'tilt-left',
    at,
    expiresAt: at,
  });
  const selfie = { key: '0'.repeat(32), width: 600, height: 800, phash: '0'.repeat(16), at };
  expect(await store.verifications.submit(id, selfie)).toBe(true);
  expect(
    await store.verifications.approve(id, { level: 'person', photoIds: [], moderatorId: 1, at }),
  ).toBe(true);
}

test('only verified members: the compiled badge, the search filter, its feed and its label', async () => {
  const id = await publishMemberAd(fixture, {
    state: 'Florida',
    city: 'Miami',
    title: 'Verified sailor looking for a crew mate',
    expiresOn: '2026-12-22',
  });
  expect((await search('verified=1')).ids).toEqual([]);

  const { accountId } = (await fixture.store.memberAds.find(id))!;
  await verify(accountId);
  await fixture.publish();
  const compiled = fixture.compiledAds().find((ad) => ad.id === id)!;
  expect(compiled.verification).toEqual({ covered: 0, photos: 0 });
  // Editors' ads are never verified.
  expect(fixture.compiledAds().filter((ad) => ad.verification)).toHaveLength(1);

  const verifiedOnly = await search('verified=1');
  expect(verifiedOnly.status).toBe(200);
  expect(verifiedOnly.ids).toEqual([id]);
  expect(verifiedOnly.html).toContain('Real person');
  expect((await search('q=sailor&verified=1&state=Florida')).ids).toEqual([id]);
  expect((await search('state=California&verified=1')).ids).toEqual([]);
  expect((await search('state=Florida')).ids.length).toBeGreaterThan(1);

  const refused = await search('verified=yes');
  expect(refused.status).toBe(400);
  expect(refused.html).toContain('Choose anyone or verified members only.');

  const feed = await (
    await fixture.app.request('http://localhost/search/feed.xml?verified=1')
  ).text();
  expect(feed).toContain('Verified sailor looking for a crew mate');
  expect(feed).toContain('verified members only');
  expect([...feed.matchAll(/<entry>/g)]).toHaveLength(1);
  const parsed = parseSearchQuery({ verified: '1', state: 'Florida' });
  expect(parsed.ok && searchFeedTitle(parsed.filters)).toBe(
    'New ads: in Florida, verified members only',
  );

  expect(await fixture.store.verifications.withdraw(accountId, new Date().toISOString())).toBe(1);
  await fixture.publish();
  expect((await search('verified=1')).ids).toEqual([]);
  expect(fixture.compiledAds().find((ad) => ad.id === id)!.verification).toBeUndefined();
});
