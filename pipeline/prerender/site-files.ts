// sitemap.xml and robots.txt, generated from the same page list as the pages themselves.
import { API_PREFIX } from '../../core/paths.ts';

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The sitemap protocol's limit of URLs in one file (https://www.sitemaps.org/protocol.html). */
export const URLS_PER_SITEMAP = 50_000;

/** Where the parts of a large sitemap go, under the site's root. */
export const SITEMAP_PARTS_FOLDER = 'sitemaps';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NAMESPACE = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

/**
 * Indexable pages only: pages whose robots directive says noindex (ads, empty cities) stay out.
 * Up to 50,000 pages: one sitemap.xml. Beyond: sitemap.xml is an index of `sitemaps/N.xml`, each
 * of at most 50,000 pages. Returns [file under the site's root, text] pairs.
 */
export function sitemapFiles(
  baseUrl: string,
  paths: readonly string[],
  perFile = URLS_PER_SITEMAP,
): Array<[string, string]> {
  const urlset = (part: readonly string[]) =>
    `${XML_HEAD}<urlset ${NAMESPACE}>\n${part
      .map((path) => `  <url><loc>${escapeXml(`${baseUrl}${path}`)}</loc></url>`)
      .join('\n')}\n</urlset>\n`;
  if (paths.length <= perFile) return [['sitemap.xml', urlset(paths)]];
  const parts: Array<[string, string]> = [];
  for (let start = 0; start < paths.length; start += perFile) {
    const file = `${SITEMAP_PARTS_FOLDER}/${parts.length + 1}.xml`;
    parts.push([file, urlset(paths.slice(start, start + perFile))]);
  }
  const index = `${XML_HEAD}<sitemapindex ${NAMESPACE}>\n${parts
    .map(([file]) => `  <sitemap><loc>${escapeXml(`${baseUrl}/${file}`)}</loc></sitemap>`)
    .join('\n')}\n</sitemapindex>\n`;
  return [['sitemap.xml', index], ...parts];
}

export function robotsTxt(baseUrl: string): string {
  return `User-agent: *\nAllow: /\nDisallow: ${API_PREFIX}/\n\nSitemap: ${baseUrl}/sitemap.xml\n`;
}
