// Placeholders editors may write in content, e.g. {{brand}}; the compiler fills them in, in
// Markdown bodies and in the strings of front matter (each string on its own: a brand may hold
// any character, quotes included). An unknown placeholder is a content problem, named here.
import type { MarkdownFile } from './read-markdown.ts';
import type { ContentProblem } from './report.ts';

/** The placeholders every content file may use. */
export type SiteTokens = { brand: string };

const TOKEN = /\{\{\s*([A-Za-z]+)\s*\}\}/g;

export function fillTokens(text: string, values: Record<string, string>): string {
  return text.replace(TOKEN, (whole, name: string) => values[name] ?? whole);
}

export function findUnknownToken(
  text: string,
  allowed: readonly string[],
): { token: string; lineIndex: number } | undefined {
  for (const match of text.matchAll(TOKEN)) {
    const token = match[1] ?? '';
    if (!allowed.includes(token)) {
      return { token, lineIndex: text.slice(0, match.index).split('\n').length - 1 };
    }
  }
  return undefined;
}

/** Fills placeholders in every string of a front-matter value, keeping its shape. */
export function fillTokensIn<T>(value: T, values: Record<string, string>): T {
  if (typeof value === 'string') return fillTokens(value, values) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => fillTokensIn(item, values)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, fillTokensIn(item, values)]),
    ) as T;
  return value;
}

/** Unknown placeholders in the strings of a front-matter value, with the path of each string. */
export function findUnknownTokensIn(
  value: unknown,
  allowed: readonly string[],
  path: string[] = [],
): Array<{ path: string; token: string }> {
  if (typeof value === 'string') {
    const unknown = findUnknownToken(value, allowed);
    return unknown ? [{ path: path.join('.'), token: unknown.token }] : [];
  }
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) =>
      findUnknownTokensIn(item, allowed, [...path, key]),
    );
  return [];
}

/** Unknown placeholders in a Markdown body, where {{brand}} and `extra` are filled in. */
export function tokenProblems(
  body: string,
  file: string,
  bodyLine: number,
  extra: string[],
): ContentProblem[] {
  const unknown = findUnknownToken(body, ['brand', ...extra]);
  if (!unknown) return [];
  return [
    {
      file,
      line: bodyLine + unknown.lineIndex,
      field: 'body',
      message: `unknown placeholder {{${unknown.token}}}; allowed: ${['brand', ...extra].map((t) => `{{${t}}}`).join(', ')}`,
    },
  ];
}

/** Unknown placeholders in front matter, where {{brand}} alone is filled in. */
export function frontMatterTokenProblems(markdown: MarkdownFile, file: string): ContentProblem[] {
  return findUnknownTokensIn(markdown.data, ['brand']).map(({ path, token }) => ({
    file,
    line: markdown.lineMatching(new RegExp(`\\{\\{\\s*${token}\\s*\\}\\}`)),
    field: path,
    message: `unknown placeholder {{${token}}}; allowed: {{brand}}`,
  }));
}
