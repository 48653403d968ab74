import { describe, expect, test } from 'vitest';
import { findContactDetails } from '../../../core/policy/contact-details.ts';

describe('findContactDetails', () => {
  test.each([
    ['phone', 'Call 555-123-4567 after work', '555-123-4567'],
    ['phone', 'text (555) 123 4567', '(555) 123 4567'],
    ['phone', 'or 555.123.4567 anytime', '555.123.4567'],
    ['phone', 'reach me on +1 555 123 4567', '+1 555 123 4567'],
    ['phone', 'digits 5551234567 here', '5551234567'],
    ['phone', 'full-width ５５５１２３４５６７', '５５５１２３４５６７'],
    ['phone', 'hidden 555\u200B123\u200B4567', '555\u200B123\u200B4567'],
    ['phone', 'ten or more 12 34 56 78 90', '12 34 56 78 90'],
    ['email', 'write to jane.doe@example.com please', 'jane.doe@example.com'],
    ['email', 'jane @ mail . org', 'jane @ mail . org'],
    ['email', 'jane at gmail dot com', 'jane at gmail dot com'],
    ['email', 'jane (at) gmail (dot) com', 'jane (at) gmail (dot) com'],
    ['email', 'jane at gmail.com', 'jane at gmail.com'],
    ['link', 'see https://example.org/me', 'https://e'],
    ['link', 'see http://x.y', 'http://x'],
    ['link', 'or www.example.org', 'www.e'],
    ['link', 'my page example.com', 'example.com'],
    ['link', 'on foo.net too', 'foo.net'],
    ['link', 'short bit.ly/x', 'bit.ly'],
    ['link', 'short t.co/abc', 't.co/'],
    ['link', 'look up example dot com', 'example dot com'],
    ['link', 'Cyrillic ехаmple.соm', 'ехаmple.соm'],
  ])('finds a %s in %j', (kind, text, found) => {
    const match = findContactDetails(text);
    expect(match?.kind).toBe(kind);
    expect(text.slice(match!.start, match!.end)).toBe(found);
  });

  test.each([
    'I am 34, 5\'10", 2 kids, 5 miles from downtown',
    'Free after 8 pm, or 7:30 on weekends; since 2015',
    'Born in 1985, moved here in 2019, love 80s music',
    'Meet at the park at 6. Coffee at noon?',
    'I like hiking.Me too? Walks with us.To the lake.',
    'Looking for love.Live music fan, e.g. jazz, i.e. anything.',
    'Mr. Smith, St. Louis, 5.5 miles, 3.5 stars',
    'Tall (6 ft 2), 190 lbs, 40 years young',
    'Zip 90210 area, mile 12 of the trail',
  ])('leaves alone %j', (text) => {
    expect(findContactDetails(text)).toBeUndefined();
  });
});
