// A refusal's words may name a page of this site ("… on /verify-age …"): the form's banner shows
// that path as a link, on the server's page and in the page's script alike, so the member can
// follow it (docs/conventions.md 21: a warning links to what to do next). Only a path standing as
// a word of its own, starting with `/` and a letter and ending at a space or a punctuation mark,
// counts (`/terms#clause-4-7`, with its anchor, stays text); the text is never changed.

/** The text in pieces: plain words, and the site paths within it. */
export type TextPiece = { text: string } | { path: string };

const SITE_PATH = /(?<=^|\s)\/[a-z][a-z0-9-]*(?:\/[a-z0-9-]+)*(?=[\s.,;:!?)]|$)/g;

export function piecesOfText(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const match of text.matchAll(SITE_PATH)) {
    if (match.index > at) pieces.push({ text: text.slice(at, match.index) });
    pieces.push({ path: match[0] });
    at = match.index + match[0].length;
  }
  if (at < text.length) pieces.push({ text: text.slice(at) });
  return pieces;
}
