// Content problems: collected from every file, printed sorted as `file:line: field: reason`.
import { relative } from 'node:path';
import type { z } from 'zod';

export interface ContentProblem {
  /** Path relative to the project root, e.g. content/ads/sample.csv. */
  file: string;
  /** 1-based line in that file. */
  line: number;
  /** The column or front-matter key at fault, or `file` for the file as a whole. */
  field: string;
  message: string;
}

export function formatProblem(problem: ContentProblem): string {
  return `${problem.file}:${problem.line}: ${problem.field}: ${problem.message}`;
}

export function sortProblems(problems: readonly ContentProblem[]): ContentProblem[] {
  return [...problems].sort(
    (a, b) =>
      a.file.localeCompare(b.file, 'en') || a.line - b.line || a.field.localeCompare(b.field, 'en'),
  );
}

/**
 * Turns zod issues into content problems. `lineOf` maps a field name to the line it stands on
 * (the CSV row, or the front-matter line of that key).
 */
export function problemsFromZod(
  error: z.ZodError,
  file: string,
  lineOf: (field: string) => number,
): ContentProblem[] {
  return error.issues.flatMap((issue): ContentProblem[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        file,
        line: lineOf(key),
        field: key,
        message: 'unknown field; check the spelling against the schema in core/schemas/',
      }));
    }
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'file';
    const missing = issue.code === 'invalid_type' && issue.input === undefined;
    return [{ file, line: lineOf(field), field, message: missing ? 'is required' : issue.message }];
  });
}

/**
 * A content file the system would not let us read (missing after the listing, a folder, no
 * permission), as a problem rather than a stack: undefined for any other error (a bug of ours).
 */
export function unreadableFileProblem(error: unknown, root: string): ContentProblem | undefined {
  const { code, path } = (error ?? {}) as { code?: unknown; path?: unknown };
  if (typeof code !== 'string' || typeof path !== 'string') return undefined;
  const file = relative(root, path).split('\\').join('/');
  return { file, line: 1, field: 'file', message: `cannot be read (${code})` };
}
