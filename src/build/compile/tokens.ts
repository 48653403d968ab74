// Placeholders editors may write in content, e.g. {{brand}}; the compiler fills them in.
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
