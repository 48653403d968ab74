// Reads a Markdown file with front matter (and checks it against its schema); renders Markdown to
// sanitised HTML.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import matter from 'gray-matter';
import type { remark as Remark } from 'remark';
import type remarkHtmlPlugin from 'remark-html';
import type { z } from 'zod';
import { problemsFromZod, type ContentProblem } from './report.ts';

export interface MarkdownFile {
  data: Record<string, unknown>;
  body: string;
  /** Line of a front-matter key (1-based), or 1 when the key is absent. */
  lineOf: (key: string) => number;
  /** Line of the first body line (for problems found in the body). */
  bodyLine: number;
  /** The first front-matter line that matches `pattern`, or 1. */
  lineMatching: (pattern: RegExp) => number;
}

export function readMarkdown(
  text: string,
  file: string,
): { markdown?: MarkdownFile; problems: ContentProblem[] } {
  let parsed: matter.GrayMatterFile<string>;
  try {
    // gray-matter caches by input text; an empty options object turns the cache off.
    parsed = matter(text, {});
  } catch (error) {
    const mark = (error as { mark?: { line?: number } }).mark;
    const reason = (error as { reason?: string }).reason ?? String(error);
    return {
      problems: [
        {
          file,
          line: (mark?.line ?? 0) + 1,
          field: 'front matter',
          message: `is not valid YAML: ${reason}`,
        },
      ],
    };
  }
  const lines = text.split(/\r?\n/);
  const frontMatterEnd = text.startsWith('---') ? lines.indexOf('---', 1) : -1;
  const lineOf = (key: string) => {
    const top = key.split('.')[0] ?? key;
    const index = lines.findIndex(
      (line, i) => i > 0 && i < frontMatterEnd && line.startsWith(`${top}:`),
    );
    return index === -1 ? 1 : index + 1;
  };
  const lineMatching = (pattern: RegExp) => {
    const index = lines.findIndex((line, i) => i > 0 && i < frontMatterEnd && pattern.test(line));
    return index === -1 ? 1 : index + 1;
  };
  return {
    markdown: {
      data: parsed.data,
      body: parsed.content,
      lineOf,
      bodyLine: frontMatterEnd + 2,
      lineMatching,
    },
    problems: [],
  };
}

/**
 * Reads the Markdown file at `path` (`file`: the name problems give) and checks its front matter
 * with `schema`. Its problems (YAML, schema) go to `problems`; nothing comes back when there are
 * any. The guides, the pages and the state files are read this way.
 */
export function readFrontMatterFile<Schema extends z.ZodType>(
  path: string,
  file: string,
  schema: Schema,
  problems: ContentProblem[],
): { markdown: MarkdownFile; data: z.output<Schema> } | undefined {
  const { markdown, problems: readProblems } = readMarkdown(readFileSync(path, 'utf8'), file);
  problems.push(...readProblems);
  if (!markdown) return undefined;
  const parsed = schema.safeParse(markdown.data);
  if (!parsed.success) {
    problems.push(...problemsFromZod(parsed.error, file, markdown.lineOf));
    return undefined;
  }
  return { markdown, data: parsed.data };
}

let markdownProcessor: ReturnType<typeof Remark> | undefined;

/**
 * Markdown to HTML with GitHub's sanitisation schema: no raw HTML, scripts or event handlers.
 * remark and its hundred modules load on first use: a build whose Markdown is unchanged finds its
 * HTML in the compile memo and never needs them (about 0.1 s of every incremental build).
 */
export function renderMarkdown(markdown: string): string {
  if (!markdownProcessor) {
    const require = createRequire(import.meta.url);
    const { remark } = require('remark') as { remark: typeof Remark };
    const remarkHtml = (require('remark-html') as { default: typeof remarkHtmlPlugin }).default;
    markdownProcessor = remark().use(remarkHtml, { sanitize: true });
  }
  return String(markdownProcessor.processSync(markdown)).trim();
}
