// The digest mail (server/saved-searches/digest.ts `digestMail`): titles and links only, a sample ad said to
// be one, markup in a title escaped in the HTML part, both unsubscribe headers (RFC 8058).
import { describe, expect, it } from 'vitest';
import { digestMail } from '../../../server/saved-searches/digest.ts';
import type { DueSavedSearch } from '../../../store/parts/saved-searches.ts';
import type { CompiledAd } from '../../../core/schemas/compiled-content.ts';

const site = { brand: 'Localboard', baseUrl: 'https://localboard.example' };
const saved: DueSavedSearch = {
  id: 7,
  accountId: 3,
  query: 'q=hiking&state=Texas',
  label: '“hiking”, in Texas',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastSentAt: null,
  checkedAt: null,
  seen: null,
  email: 'member@example.com',
};
const ad = (fields: Partial<CompiledAd>): CompiledAd => ({
  id: 1001,
  state: 'Texas',
  city: 'Austin',
  age: 30,
  seeks: 'w4m',
  title: 'Hiking partner',
  description: 'Weekend hikes in the hills, call 555-0100.',
  images: [],
  featured: false,
  postedAt: '2026-11-22',
  expiresAt: '2026-12-22',
  sample: false,
  ...fields,
});

describe('the digest mail', () => {
  const mail = digestMail(
    site,
    saved,
    [ad({}), ad({ id: 1002, title: 'Trail runs <b>& coffee</b>', sample: true, city: 'El Paso' })],
    'TOKEN',
  );

  it('lists titles and links only, a sample ad as one', () => {
    expect(mail.to).toBe('member@example.com');
    expect(mail.subject).toBe('2 new ads: “hiking”, in Texas');
    expect(mail.text).toContain(
      'Hiking partner\nhttps://localboard.example/city/Texas/Austin/ad/1001\n',
    );
    expect(mail.text).toContain(
      'Trail runs <b>& coffee</b> (sample ad)\nhttps://localboard.example/city/Texas/El%20Paso/ad/1002\n',
    );
    expect(mail.text).toContain('https://localboard.example/search?q=hiking&state=Texas');
    for (const part of [mail.text, mail.html]) expect(part).not.toContain('555-0100');
  });

  it('escapes a title in the HTML part', () => {
    expect(mail.html).toContain('Trail runs &lt;b&gt;&amp; coffee&lt;/b&gt; (sample ad)</a>');
    expect(mail.html).not.toContain('<b>&');
  });

  it('unsubscribes in one click (RFC 8058), the same link in the text', () => {
    expect(mail.headers).toEqual({
      'List-Unsubscribe': '<https://localboard.example/unsubscribe/TOKEN>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(mail.text).toContain('\nhttps://localboard.example/unsubscribe/TOKEN\n');
  });
});
