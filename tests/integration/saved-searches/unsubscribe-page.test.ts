// The unsubscribe page of a digest's link (docs/product.md section 11), without JavaScript: GET
// shows the saved search in the site's layout and a plain form; its POST, or a mail client's
// one-click POST (RFC 8058), deletes it signed out; a used, unknown or malformed link is a 404 page
// saying so. The token is in the path: no caching, no indexing, no Referer.
import { describe, expect, test } from 'vitest';
import {
  UNSUBSCRIBE_SECRET,
  unsubscribeToken,
} from '../../../server/saved-searches/saved-searches.ts';
import { cookieHeader, FORM_TYPE, ORIGIN } from '../../helpers/api.ts';
import { getPage } from '../../helpers/moderation.ts';
import { formOf, linkByText } from '../../helpers/pages.ts';
import { makeMember, type TestMember } from '../../helpers/posting.ts';
import { saveSearchAs } from '../../helpers/saved-searches.ts';
import { searchFixtureForFile } from '../../helpers/search-fixture.ts';

const fixture = searchFixtureForFile();

/** Saves `query` for the member, as the form on /search does; the link its digests carry. */
async function savedWithLink(member: TestMember, query: string): Promise<string> {
  await saveSearchAs(fixture, member, query);
  const secret = await fixture.store.secrets.get(UNSUBSCRIBE_SECRET);
  // The newest: the one just saved (oldest first).
  const row = (await fixture.store.savedSearches.listOwned(member.accountId)).at(-1);
  return `/unsubscribe/${unsubscribeToken(secret, row!)}`;
}

const queriesOf = async (member: TestMember) =>
  (await fixture.store.savedSearches.listOwned(member.accountId)).map((search) => search.query);

const post = (path: string, body = '', headers: Record<string, string> = {}) =>
  fixture.app.request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { 'content-type': FORM_TYPE, ...headers },
    body,
  });

/** The headers every answer of these pages carries, whatever it says. */
function expectPrivateHeaders(response: Response) {
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('x-robots-tag')).toBe('noindex, nofollow');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
}

const GONE = 'This link no longer works';

describe('the unsubscribe page', () => {
  test('GET shows the saved search in the layout with a plain form; it deletes nothing', async () => {
    const member = await makeMember(fixture);
    const path = await savedWithLink(member, 'q=hiking&state=Florida&city=Miami');
    const response = await getPage(fixture.app, path);
    expect(response.status).toBe(200);
    expectPrivateHeaders(response);
    const html = await response.text();
    // The site's layout: header, footer, the stylesheet's classes.
    expect(html).toContain('<header class="site-header');
    expect(html).toContain('<footer class="site-footer"');
    expect(html).toContain('<title>Unsubscribe from a saved search - ');
    expect(html).toContain('<h1>Unsubscribe from a saved search</h1>');
    expect(html).toContain('<strong>“hiking”, in Miami, Florida</strong>');
    expect(formOf(html, path)).toMatchObject({
      attributes: { action: path, method: 'post' },
      text: 'Unsubscribe',
    });
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
    // The token is in the page's own form only: not in its canonical link or og:url.
    expect(html.split(path.slice('/unsubscribe/'.length))).toHaveLength(2);
    // Opening the link (a mail scanner does) keeps the saved search.
    expect((await getPage(fixture.app, path)).status).toBe(200);
    expect(await queriesOf(member)).toEqual(['q=hiking&state=Florida&city=Miami']);
  });

  test('the form’s POST deletes it signed out and links to the search; a second POST is 404', async () => {
    const member = await makeMember(fixture);
    const path = await savedWithLink(member, 'q=jazz&state=Florida');
    const kept = await savedWithLink(member, 'q=chess');

    const done = await post(path);
    expect(done.status).toBe(200);
    expectPrivateHeaders(done);
    const html = await done.text();
    expect(html).toContain('<header class="site-header');
    expect(html).toContain('<h1>You are unsubscribed</h1>');
    expect(html).toContain('“jazz”, in Florida');
    expect(html).toContain('we will not email you about it again.');
    // To save it again, and the member's other saved searches.
    expect(linkByText(html, 'Open the search')).toBe('/search?q=jazz&state=Florida');
    expect(linkByText(html, 'Saved searches')).toBe('/account#saved-searches');
    expect(await queriesOf(member)).toEqual(['q=chess']);

    const again = await post(path);
    expect(again.status).toBe(404);
    expectPrivateHeaders(again);
    expect(await again.text()).toContain(`<h1>${GONE}</h1>`);
    const opened = await getPage(fixture.app, path);
    expect(opened.status).toBe(404);
    expect(await opened.text()).toContain(`<h1>${GONE}</h1>`);
    // The other saved search's link still works.
    expect((await getPage(fixture.app, kept)).status).toBe(200);
  });

  test('a mail client’s one-click POST (RFC 8058) unsubscribes, from any origin, no session', async () => {
    const member = await makeMember(fixture);
    const path = await savedWithLink(member, 'seeks=w4w&state=California');
    const oneClick = await post(path, 'List-Unsubscribe=One-Click', {
      origin: 'https://mail.example',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain('<h1>You are unsubscribed</h1>');
    expect(await queriesOf(member)).toEqual([]);
    expect((await post(path, 'List-Unsubscribe=One-Click')).status).toBe(404);
  });

  test('a signed-in member opening another member’s link unsubscribes that one (the link is the permission)', async () => {
    const owner = await makeMember(fixture);
    const other = await makeMember(fixture);
    const path = await savedWithLink(owner, 'q=sailing');
    await savedWithLink(other, 'q=sailing');
    const done = await post(path, '', cookieHeader(other.session));
    expect(done.status).toBe(200);
    expect(await queriesOf(owner)).toEqual([]);
    expect(await queriesOf(other)).toEqual(['q=sailing']);
  });

  test.each([
    ['a word', 'nonsense'],
    ['the right shape, no saved search’s', 'A'.repeat(43)],
    ['one character too many', 'A'.repeat(44)],
    ['longer than anything valid', 'x'.repeat(5000)],
    ['not ASCII', encodeURIComponent('é'.repeat(43))],
    ['a broken escape', '%E0%A4%A'],
    ['encoded junk', '%00%0d%0a%3Cscript%3E'],
    ['an encoded slash', '..%2F..%2Fetc%2Fpasswd'],
  ])('%s: 404, the page saying the link no longer works', async (_case, token) => {
    for (const response of [
      await getPage(fixture.app, `/unsubscribe/${token}`),
      await post(`/unsubscribe/${token}`, 'List-Unsubscribe=One-Click'),
    ]) {
      expect(response.status).toBe(404);
      expectPrivateHeaders(response);
      const html = await response.text();
      expect(html).toContain(`<h1>${GONE}</h1>`);
      expect(html).not.toContain('action="/unsubscribe/');
    }
  });
});
