// The terms page's clause anchors (pipeline/compile/terms-clause-anchors.ts): every numbered
// section and every item of its lists gets a stable id, and every clause a statement of reasons
// names (core/schemas/terms-clauses.ts) is on the project's own terms page, so no statement links
// to an anchor that does not exist.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readMarkdown, renderMarkdown } from '../../../../pipeline/compile/read-markdown.ts';
import { withClauseAnchors } from '../../../../pipeline/compile/terms-clause-anchors.ts';
import {
  clauseAnchor,
  clausePath,
  NAMED_CLAUSES,
  REASON_CLAUSES,
} from '../../../../core/schemas/terms-clauses.ts';
import { MODERATION_REASONS } from '../../../../core/schemas/moderation-reasons.ts';

const termsFile = join(import.meta.dirname, '..', '..', '..', '..', 'content', 'pages', 'terms.md');

describe('clause anchors', () => {
  test('sections and their list items, numbered as the page shows them', () => {
    const html = withClauseAnchors(
      renderMarkdown(
        '## 3. Posts\n\nText.\n\n## 4. Not\n\n1. **One.** a\n2. **Two.** b\n\n## 5. Other',
      ),
    );
    expect(html).toContain('<h2 id="clause-3">3. Posts</h2>');
    expect(html).toContain('<h2 id="clause-4">4. Not</h2>');
    expect(html).toContain('<li id="clause-4-1"><strong>One.</strong> a</li>');
    expect(html).toContain('<li id="clause-4-2"><strong>Two.</strong> b</li>');
    expect(html).toContain('<h2 id="clause-5">5. Other</h2>');
  });

  test('every moderation reason has its clause, and every clause named is on the terms page', () => {
    expect(Object.keys(REASON_CLAUSES).sort()).toEqual(Object.keys(MODERATION_REASONS).sort());
    const { markdown } = readMarkdown(readFileSync(termsFile, 'utf8'), 'content/pages/terms.md');
    const html = withClauseAnchors(renderMarkdown(markdown!.body));
    for (const clause of NAMED_CLAUSES)
      expect(html, `clause ${clause.number}`).toContain(`id="${clauseAnchor(clause.number)}"`);
    expect(clausePath('4.1')).toBe('/terms#clause-4-1');
    // The scam clause is the one about money requests, as the statement says.
    expect(html).toMatch(/<li id="clause-4-9"><strong>Is a scam or is illegal\.<\/strong>/);
    expect(html).toMatch(/<li id="clause-4-7"><strong>Gives contact details/);
  });
});
