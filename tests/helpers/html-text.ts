// The text a person reads in a piece of rendered HTML: the one reading every test helper uses
// (tests/helpers/pages.ts for pages the server renders, tests/e2e/support.ts for built ones).
/** The five entities React writes, decoded. */
export function decodeEntities(text: string): string {
  return text
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Visible text of a page or a fragment: scripts, styles and tags removed, white space folded. */
export function textOf(html: string): string {
  // React separates adjacent text with <!-- -->: remove those first, then turn tags into spaces.
  return decodeEntities(
    html
      .replace(/<!--.*?-->/g, '')
      .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, ' ')
      .replace(/<[^>]+>/g, ' '),
  )
    .replace(/\s+/g, ' ')
    .trim();
}
