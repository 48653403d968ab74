// Reads an Atom feed as a feed reader would (@rowanmanning/feed-parser), after checking that it is
// well-formed XML and has what RFC 4287 requires (fast-xml-parser): the feed's id, title, updated,
// author and self/alternate links, and each entry's id, title, updated, alternate link and
// summary. Throws with what is missing; returns what a reader shows.
import { parseFeed } from '@rowanmanning/feed-parser';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface ReadFeed {
  id: string;
  title: string;
  updated: string;
  self: string;
  alternate: string;
  entries: Array<{
    id: string;
    title: string;
    link: string;
    published: string;
    updated: string;
    summary: string;
    category: string | undefined;
  }>;
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: 'text',
  isArray: (name) => ['entry', 'link', 'author', 'category'].includes(name),
  // Text as written (decoded), never turned into numbers.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
});

type Node = Record<string, unknown>;
const text = (node: unknown): string =>
  typeof node === 'string'
    ? node
    : typeof node === 'object' && node
      ? text((node as Node).text)
      : '';

export function readAtom(document: string): ReadFeed {
  const valid = XMLValidator.validate(document);
  if (valid !== true)
    throw new Error(`Not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const root = (xml.parse(document) as Node).feed as Node | undefined;
  if (!root) throw new Error('No <feed> element');
  if (root.xmlns !== 'http://www.w3.org/2005/Atom') throw new Error('Not the Atom namespace');
  const must = (node: Node, name: string, where: string) => {
    const value = text(node[name]);
    if (!value) throw new Error(`${where} has no <${name}>`);
    return value;
  };
  const date = (node: Node, name: string, where: string) => {
    const value = must(node, name, where);
    if (!RFC3339.test(value))
      throw new Error(`${where} <${name}> is not an RFC 3339 date: ${value}`);
    return value;
  };
  const link = (node: Node, rel: string, where: string) => {
    const found = ((node.link as Node[] | undefined) ?? []).find(
      (candidate) => (candidate.rel ?? 'alternate') === rel,
    );
    const href = found?.href;
    if (typeof href !== 'string' || !/^https?:\/\//.test(href))
      throw new Error(`${where} has no absolute rel="${rel}" link`);
    return href;
  };
  const authors = (root.author as Node[] | undefined) ?? [];
  if (!authors.some((author) => text(author.name))) throw new Error('The feed has no author');
  const entries = ((root.entry as Node[] | undefined) ?? []).map((entry, index) => {
    const where = `Entry ${index + 1}`;
    const summary = entry.summary as Node | undefined;
    if (!summary || summary.type !== 'text') throw new Error(`${where} has no plain-text summary`);
    return {
      id: must(entry, 'id', where),
      title: text(entry.title),
      link: link(entry, 'alternate', where),
      published: date(entry, 'published', where),
      updated: date(entry, 'updated', where),
      summary: text(summary),
      category: ((entry.category as Node[] | undefined) ?? [])[0]?.term as string | undefined,
    };
  });
  const feed = {
    id: must(root, 'id', 'The feed'),
    title: must(root, 'title', 'The feed'),
    updated: date(root, 'updated', 'The feed'),
    self: link(root, 'self', 'The feed'),
    alternate: link(root, 'alternate', 'The feed'),
    entries,
  };
  // A feed reader sees the same titles and links.
  const parsed = parseFeed(document);
  if (parsed.meta.type !== 'atom') throw new Error('A feed reader does not read it as Atom');
  const seen = parsed.items.map((item) => [item.title ?? '', item.url ?? '']);
  const ours = entries.map((entry) => [entry.title, entry.link]);
  if (JSON.stringify(seen) !== JSON.stringify(ours))
    throw new Error(`A feed reader reads other entries: ${JSON.stringify(seen.slice(0, 3))}`);
  return feed;
}
