// Stable anchors for the clauses of the terms page (content/pages/terms.md), so a statement of
// reasons links to the rule it applies (`/terms#clause-4-1`; core/schemas/terms-clauses.ts). The
// Markdown is rendered sanitised (no ids may come from it), so the anchors are added to the HTML
// it gives: each `<h2>N. …</h2>` becomes `id="clause-N"`, and each item of an ordered list under
// it `id="clause-N-K"`, numbered as the page shows them.
import { clauseAnchor } from '../../core/schemas/terms-clauses.ts';

/** The terms page's HTML with an id on every numbered section and on the items of its lists. */
export function withClauseAnchors(html: string): string {
  let section: string | undefined;
  let item = 0;
  return html.replace(/<h2>(\d+)\.|<ol>|<li>/g, (tag: string, number: string | undefined) => {
    if (number !== undefined) {
      section = number;
      return `<h2 id="${clauseAnchor(number)}">${number}.`;
    }
    if (tag === '<ol>') {
      item = 0;
      return tag;
    }
    if (section === undefined) return tag;
    item += 1;
    return `<li id="${clauseAnchor(`${section}.${item}`)}">`;
  });
}
