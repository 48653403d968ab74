import { describe, expect, test } from 'vitest';
import { answeredByApp } from '../../../../server/dev/app-requests.ts';

const get = (path: string) => answeredByApp('GET', new URL(path, 'http://localhost'));

describe('the dev server hands to the app', () => {
  test("a search's feed, with or without its query", () => {
    expect(get('/search/feed.xml?q=hiking&state=California')).toBe(true);
    expect(get('/search/feed.xml')).toBe(true);
  });

  test('the API and on-request pages, but not the prerendered pages Vike renders', () => {
    expect(get('/api/me')).toBe(true);
    expect(get('/search?q=hiking')).toBe(true);
    expect(get('/city/California/Los%20Angeles')).toBe(false);
  });
});
