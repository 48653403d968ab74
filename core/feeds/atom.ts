// A small Atom 1.0 writer (RFC 4287), used by the build (city feeds) and the server (search feeds).
// The `feed` package was the alternative; it writes titles and summaries as type="html" inside
// CDATA, where ours are plain text (type="text", escaped), and a template is cheaper over 16,000
// city feeds. Every text goes through xmlText(): the five XML specials escaped, and the characters
// XML 1.0 cannot carry at all (control characters, lone surrogates, U+FFFE/U+FFFF) dropped, so a
// feed is well-formed whatever an ad says.

export interface AtomEntry {
  /** A permanent, absolute URL (the ad's page): the entry's id and its alternate link. */
  url: string;
  title: string;
  /** RFC 3339 date-time. */
  published: string;
  /** RFC 3339 date-time. */
  updated: string;
  /** Plain text. */
  summary: string;
  /** A category term (the ad's city), plain text. */
  category?: string;
}

export interface AtomFeed {
  /** The feed's own absolute URL: its id and its rel="self" link. */
  selfUrl: string;
  /** The page the feed follows (the city page, the search). */
  alternateUrl: string;
  title: string;
  /** RFC 3339 date-time: the newest entry's, or a fixed date for an empty feed. */
  updated: string;
  /** The site: its name and address. */
  author: { name: string; uri: string };
  entries: readonly AtomEntry[];
}

/** The date of a feed without entries: fixed, so that an empty feed's file never changes. */
export const EMPTY_FEED_UPDATED = '2000-01-01T00:00:00Z';

/** Characters XML 1.0 does not allow (and C1 controls, which it discourages), and lone surrogates. */
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Text for XML content or a quoted attribute: escaped, characters XML cannot carry dropped. */
export const xmlText = (text: string): string =>
  text.replace(NOT_XML, '').replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** The feed as an Atom document. */
export function atomXml(feed: AtomFeed): string {
  const entries = feed.entries.map(entryXml).join('');
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    '<feed xmlns="http://www.w3.org/2005/Atom">\n' +
    `  <id>${xmlText(feed.selfUrl)}</id>\n` +
    `  <title type="text">${xmlText(feed.title)}</title>\n` +
    `  <updated>${xmlText(feed.updated)}</updated>\n` +
    `  <link rel="self" type="application/atom+xml" href="${xmlText(feed.selfUrl)}"/>\n` +
    `  <link rel="alternate" type="text/html" href="${xmlText(feed.alternateUrl)}"/>\n` +
    `  <author><name>${xmlText(feed.author.name)}</name><uri>${xmlText(feed.author.uri)}</uri></author>\n` +
    entries +
    '</feed>\n'
  );
}

function entryXml(entry: AtomEntry): string {
  const url = xmlText(entry.url);
  const category =
    entry.category === undefined
      ? ''
      : `    <category term="${xmlText(entry.category)}" label="${xmlText(entry.category)}"/>\n`;
  return (
    '  <entry>\n' +
    `    <id>${url}</id>\n` +
    `    <title type="text">${xmlText(entry.title)}</title>\n` +
    `    <link rel="alternate" type="text/html" href="${url}"/>\n` +
    `    <published>${xmlText(entry.published)}</published>\n` +
    `    <updated>${xmlText(entry.updated)}</updated>\n` +
    category +
    `    <summary type="text">${xmlText(entry.summary)}</summary>\n` +
    '  </entry>\n'
  );
}
