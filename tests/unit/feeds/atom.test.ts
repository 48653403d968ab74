import { parseFeed } from '@rowanmanning/feed-parser';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { adEntry, cityFeed, feedUpdated, summaryOf } from '../../../core/feeds/ad-feed.ts';
import { atomXml, EMPTY_FEED_UPDATED, xmlText, type AtomFeed } from '../../../core/feeds/atom.ts';
import { readAtom } from '../../helpers/atom-checks.ts';
import type { CompiledAd } from '../../../core/schemas/compiled-content.ts';

const site = { brand: 'Localboard', baseUrl: 'https://localboard.example' };

const ad = (fields: Partial<CompiledAd> = {}): CompiledAd => ({
  id: 1001,
  state: 'California',
  city: 'Los Angeles',
  age: 30,
  seeks: 'w4m',
  title: 'Hiking partner',
  description: 'Weekend hikes in the hills.',
  images: [],
  featured: false,
  postedAt: '2026-03-02',
  expiresAt: '2026-04-01',
  sample: false,
  ...fields,
});

const feedOf = (entries: AtomFeed['entries']): AtomFeed => ({
  selfUrl: 'https://localboard.example/search/feed.xml?q=a&state=California',
  alternateUrl: 'https://localboard.example/search?q=a&state=California',
  title: 'Ads & more',
  updated: '2026-03-02T00:00:00Z',
  author: { name: 'Localboard', uri: 'https://localboard.example/' },
  entries,
});

describe('xmlText', () => {
  it('escapes the five XML specials', () => {
    expect(xmlText(`<script>&"'</script>`)).toBe('&lt;script&gt;&amp;&quot;&apos;&lt;/script&gt;');
  });

  it('escapes an entity-looking text again, so that it reads back as typed', () => {
    expect(xmlText('&amp; &#60;')).toBe('&amp;amp; &amp;#60;');
  });

  it('drops control characters XML cannot carry, keeps tabs and line breaks', () => {
    expect(xmlText('a\u0000b\u0007c\u001Bd\u007Fe\u0085f\tg\nh\ri')).toBe('abcdef\tg\nh\ri');
  });

  it('drops lone surrogates and U+FFFE/U+FFFF, keeps whole pairs (emoji)', () => {
    expect(xmlText('a\uD800b\uDC00c\uFFFEd\uFFFF😀')).toBe('abcd😀');
  });

  it('never writes CDATA: a CDATA end marker is plain escaped text', () => {
    expect(xmlText(']]>')).toBe(']]&gt;');
  });
});

describe('atomXml', () => {
  it('writes a title with markup escaped, and a reader parses it back equal', () => {
    const title = `<script>alert(1)</script> & "quotes" 'too'`;
    const summary = 'Line one\u0000 <b>bold</b> & ]]> done';
    const xml = atomXml(
      feedOf([
        {
          url: 'https://localboard.example/city/California/Los%20Angeles/ad/7',
          title,
          published: '2026-03-02T00:00:00Z',
          updated: '2026-03-02T00:00:00Z',
          summary,
          category: 'Los Angeles, California',
        },
      ]),
    );
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain('CDATA');
    expect(XMLValidator.validate(xml)).toBe(true);
    const feed = parseFeed(xml);
    expect(feed.meta.type).toBe('atom');
    expect(feed.title).toBe('Ads & more');
    expect(feed.url).toBe('https://localboard.example/search?q=a&state=California');
    expect(feed.self).toBe('https://localboard.example/search/feed.xml?q=a&state=California');
    const [entry] = feed.items;
    expect(entry?.title).toBe(title);
    expect(entry?.description).toBe('Line one <b>bold</b> & ]]> done');
    expect(entry?.id).toBe('https://localboard.example/city/California/Los%20Angeles/ad/7');
    expect(entry?.url).toBe('https://localboard.example/city/California/Los%20Angeles/ad/7');
    expect(entry?.published?.toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(entry?.categories.map((category) => category.term)).toEqual(['Los Angeles, California']);
  });

  it('writes a feed without entries that still has its id, title, updated, links and author', () => {
    const xml = atomXml({ ...feedOf([]), updated: EMPTY_FEED_UPDATED });
    expect(XMLValidator.validate(xml)).toBe(true);
    const feed = readAtom(xml);
    expect(feed.entries).toEqual([]);
    expect(feed.id).toBe('https://localboard.example/search/feed.xml?q=a&state=California');
    expect(feed.updated).toBe('2000-01-01T00:00:00Z');
    expect(parseFeed(xml).authors.map((author) => author.name)).toEqual(['Localboard']);
  });
});

describe('summaryOf', () => {
  it('keeps a short text whole, on one line', () => {
    expect(summaryOf('Line one.\n\nLine  two.')).toBe('Line one. Line two.');
  });

  it('cuts a long text at the end of a word, within 300 characters, with an ellipsis', () => {
    const text = 'word '.repeat(100);
    const summary = summaryOf(text);
    expect(summary.length).toBeLessThanOrEqual(301);
    expect(summary.endsWith('word…')).toBe(true);
  });

  it('cuts a text without spaces at 300 characters, never inside an emoji', () => {
    expect(summaryOf('x'.repeat(400))).toBe(`${'x'.repeat(300)}…`);
    const emoji = summaryOf(`${'x'.repeat(299)}😀😀`);
    expect(emoji).toBe(`${'x'.repeat(299)}…`);
  });
});

describe('city feeds', () => {
  it('give each ad its permanent URL, posting day, city and summary; nothing else of it', () => {
    const entry = adEntry(ad({ description: 'Reach me at someone@example.com' }), site);
    expect(entry).toEqual({
      url: 'https://localboard.example/city/California/Los%20Angeles/ad/1001',
      title: 'Hiking partner',
      published: '2026-03-02T00:00:00Z',
      updated: '2026-03-02T00:00:00Z',
      summary: 'Reach me at someone@example.com',
      category: 'Los Angeles, California',
    });
  });

  it('mark a sample ad as the page does', () => {
    expect(adEntry(ad({ sample: true }), site).summary).toBe(
      'Sample ad. Weekend hikes in the hills.',
    );
  });

  it('are updated on the newest posting day, featured or not, or a fixed day when empty', () => {
    expect(
      feedUpdated([ad({ postedAt: '2026-01-01' }), ad({ postedAt: '2026-02-03' }), ad()]),
    ).toBe('2026-03-02T00:00:00Z');
    const empty = cityFeed('Vermont', 'Burlington', [], site);
    expect(empty.updated).toBe(EMPTY_FEED_UPDATED);
    expect(empty.selfUrl).toBe('https://localboard.example/city/Vermont/Burlington/feed.xml');
    expect(empty.alternateUrl).toBe('https://localboard.example/city/Vermont/Burlington');
  });
});
