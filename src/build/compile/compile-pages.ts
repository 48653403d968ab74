// The site's own pages (content/pages/{slug}.md: terms, privacy, about), compiled for compile.ts:
// each must be there; terms and privacy say when they last changed; the terms' clauses have anchors.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompiledPage } from '../../schemas/compiled-content.ts';
import { PAGE_SLUGS, pageFrontMatterSchema, type PageSlug } from '../../schemas/page.ts';
import type { ContentReader } from './content-reader.ts';
import { readMarkdown } from './read-markdown.ts';
import { withClauseAnchors } from './terms-clause-anchors.ts';
import { problemsFromZod } from './report.ts';
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
    const { markdown, problems: readProblems } = readMarkdown(readFileSync(path, 'utf8'), file);
    problems.push(...readProblems);
    if (!markdown) continue;
    const parsed = pageFrontMatterSchema.safeParse(markdown.data);
    if (!parsed.success) {
      problems.push(...problemsFromZod(parsed.error, file, markdown.lineOf));
      continue;
    }
    if (slug !== 'about' && !parsed.data.lastUpdated) {
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
      ...parsed.data,
      title: fillTokens(parsed.data.title, tokens),
      description: fillTokens(parsed.data.description, tokens),
      // The terms' clauses are linked from statements of reasons: each gets its stable anchor.
      html: slug === 'terms' ? withClauseAnchors(html) : html,
    };
  }
  return pages;
}
