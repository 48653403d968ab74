// The guides (content/guides/{slug}.md), compiled for compile.ts: each named after its file, in
// their `order` (each order once); besides {{brand}}, a guide may list the ten cities with the
// most published ads ({{topCities}}), so guides are compiled after the ads are counted.
import { basename } from 'node:path';
import type {
  AdCounts,
  CompiledGuide,
  CompiledState,
} from '../../core/schemas/compiled-content.ts';
import { guideFrontMatterSchema } from '../../core/schemas/guide.ts';
import { cityPath } from '../../core/paths.ts';
import type { ContentReader } from './content-reader.ts';
import { readFrontMatterFile } from './read-markdown.ts';
import { fillTokens, frontMatterTokenProblems, tokenProblems, type SiteTokens } from './tokens.ts';

/** The guides in their order. */
export function compileGuides(
  reader: ContentReader,
  tokens: SiteTokens,
  adCounts: AdCounts,
  states: readonly CompiledState[],
): CompiledGuide[] {
  const { problems, rel, listFiles, markdownToHtml } = reader;
  const topCitiesMarkdown = topCitiesList(adCounts, states);
  const guides: CompiledGuide[] = [];
  const orders = new Map<number, string>();
  for (const path of listFiles('guides', '.md')) {
    const file = rel(path);
    const read = readFrontMatterFile(path, file, guideFrontMatterSchema, problems);
    if (!read) continue;
    const { markdown, data } = read;
    const guide = data;
    if (guide.slug !== basename(path, '.md')) {
      problems.push({
        file,
        line: markdown.lineOf('slug'),
        field: 'slug',
        message: `must match the file name ('${basename(path, '.md')}')`,
      });
    }
    const sameOrder = orders.get(guide.order);
    if (sameOrder)
      problems.push({
        file,
        line: markdown.lineOf('order'),
        field: 'order',
        message: `${guide.order} is already used by ${sameOrder}`,
      });
    orders.set(guide.order, file);
    problems.push(...frontMatterTokenProblems(markdown, file));
    problems.push(...tokenProblems(markdown.body, file, markdown.bodyLine, ['topCities']));
    const body = fillTokens(markdown.body, { ...tokens, topCities: topCitiesMarkdown });
    guides.push({
      ...guide,
      title: fillTokens(guide.title, tokens),
      summary: fillTokens(guide.summary, tokens),
      html: markdownToHtml(body),
    });
  }
  guides.sort((a, b) => a.order - b.order);
  return guides;
}

/** The ten cities with the most published ads, as a Markdown list (the top-cities guide). */
function topCitiesList(adCounts: AdCounts, states: readonly CompiledState[]): string {
  type Entry = { state: string; city: string; ads: number; population: number; key: string };
  const before = (a: Entry, b: Entry) =>
    b.ads - a.ads || b.population - a.population || a.key.localeCompare(b.key, 'en');
  // One pass keeping the best ten, in order: there may be tens of thousands of cities.
  const top: Entry[] = [];
  for (const state of states) {
    const counts = adCounts[state.name];
    if (!counts) continue;
    for (const city of state.cities) {
      const ads = counts[city.name];
      if (!ads) continue;
      const entry = {
        state: state.name,
        city: city.name,
        ads,
        population: city.population,
        key: `${state.name}\u0000${city.name}`,
      };
      if (top.length === 10 && before(entry, top[9]!) >= 0) continue;
      let at = top.length;
      while (at > 0 && before(entry, top[at - 1]!) < 0) at -= 1;
      top.splice(at, 0, entry);
      if (top.length > 10) top.pop();
    }
  }
  if (top.length === 0) return '_No city has active ads yet._';
  return top
    .map(
      (entry, index) =>
        `${index + 1}. [${entry.city}, ${entry.state}](${cityPath(entry.state, entry.city)}): ${entry.ads} active ${entry.ads === 1 ? 'ad' : 'ads'}`,
    )
    .join('\n');
}
