// The sitemap keeps to the protocol's 50,000 URLs a file: beyond that, an index of parts.
import { describe, expect, test } from 'vitest';
import { robotsTxt, sitemapFiles } from '../../../../pipeline/prerender/site-files.ts';

const BASE = 'https://localboard.example';

describe('sitemapFiles', () => {
  test('one sitemap.xml while the pages fit in one file, names escaped', () => {
    const files = sitemapFiles(BASE, ['/', "/city/Idaho/Coeur%20d'Alene", '/about?a=1&b=2'], 3);
    expect(files.map(([file]) => file)).toEqual(['sitemap.xml']);
    expect(files[0]![1]).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        '  <url><loc>https://localboard.example/</loc></url>\n' +
        "  <url><loc>https://localboard.example/city/Idaho/Coeur%20d'Alene</loc></url>\n" +
        '  <url><loc>https://localboard.example/about?a=1&amp;b=2</loc></url>\n' +
        '</urlset>\n',
    );
  });

  test('more pages than a file takes: sitemap.xml indexes parts of at most that many, in order', () => {
    const paths = Array.from({ length: 7 }, (_, index) => `/state/S${index + 1}`);
    const files = sitemapFiles(BASE, paths, 3);
    expect(files.map(([file]) => file)).toEqual([
      'sitemap.xml',
      'sitemaps/1.xml',
      'sitemaps/2.xml',
      'sitemaps/3.xml',
    ]);
    expect(files[0]![1]).toContain('<sitemapindex');
    expect(files[0]![1]).toContain('<loc>https://localboard.example/sitemaps/3.xml</loc>');
    const locs = files
      .slice(1)
      .flatMap(([, text]) => [...text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]));
    expect(locs).toEqual(paths.map((path) => `${BASE}${path}`));
    expect(files[3]![1].match(/<url>/g)).toHaveLength(1);
  });

  test('robots.txt points to the sitemap and keeps crawlers off the API', () => {
    expect(robotsTxt(BASE)).toBe(
      'User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: https://localboard.example/sitemap.xml\n',
    );
  });
});
