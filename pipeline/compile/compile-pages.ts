// The site's own pages (content/pages/{slug}.md: terms, privacy, about), compiled for compile.ts:
// each must be there; terms and privacy say when they last changed; the terms' clauses have anchors.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CompiledPage } from '../../core/schemas/compiled-content.ts';
import { PAGE_SLUGS, pageFrontMatterSchema, type PageSlug } from '../../core/schemas/page.ts';
import type { ContentReader } from './content-reader.ts';
import { readFrontMatterFile } from './read-markdown.ts';
import { withClauseAnchors } from './terms-clause-anchors.ts';
import { fillTokens, frontMatterTokenProblems, tokenProblems, type SiteTokens } from './tokens.ts';

/** The pages found (a missing one is a problem). */
export function compilePages(
  reader: ContentReader,
  tokens: SiteTokens,
): Partial<Record<PageSlug, CompiledPage>> {
  const { contentDir, problems, rel, markdownToHtml } = reader;
  const pages: Partial<Record<PageSlug, CompiledPage>> = {};
  for (const slug of PAGE_SLUGS) {
    const path = join(contentDir, 'pages', `${slug}.md`);
    const file = rel(path);
    if (!existsSync(path)) {
      problems.push({ file, line: 1, field: 'file', message: 'is missing' });
      continue;
    }
    const read = readFrontMatterFile(path, file, pageFrontMatterSchema, problems);
    if (!read) continue;
    const { markdown, data } = read;
    if (slug !== 'about' && !data.lastUpdated) {
      problems.push({
        file,
        line: 1,
        field: 'lastUpdated',
        message: 'is required on terms and privacy (YYYY-MM-DD)',
      });
    }
    problems.push(...frontMatterTokenProblems(markdown, file));
    problems.push(...tokenProblems(markdown.body, file, markdown.bodyLine, []));
    const html = markdownToHtml(fillTokens(markdown.body, tokens));
    pages[slug] = {
      ...data,
      title: fillTokens(data.title, tokens),
      description: fillTokens(data.description, tokens),
      // The terms' clauses are linked from statements of reasons: each gets its stable anchor.
      html: slug === 'terms' ? withClauseAnchors(html) : html,
    };
  }
  return pages;
}
