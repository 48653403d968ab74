// What the compiler's parts (compile.ts, compile-states.ts, compile-guides.ts, compile-pages.ts)
// share while they read content/: the folder, one list of the problems found in every file,
// paths as problems name them, files listed folder by folder, and Markdown rendered through the
// memo (an unchanged text is not rendered again).
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CompileMemo } from './compile-memo.ts';
import { renderMarkdown } from './read-markdown.ts';
import type { ContentProblem } from './report.ts';

export interface ContentReader {
  contentDir: string;
  memo: CompileMemo;
  /** Every problem found so far, in every file. */
  problems: ContentProblem[];
  /** A path as problems name it, from the project: `content/states/texas.md`. */
  rel(path: string): string;
  /** The files of a folder of content/ with this extension, in name order; none if it is missing. */
  listFiles(folder: string, extension: string): string[];
  markdownToHtml(markdown: string): string;
}

export function contentReader(contentDir: string, memo: CompileMemo): ContentReader {
  const problems: ContentProblem[] = [];
  const rel = (path: string) => relative(join(contentDir, '..'), path).split('\\').join('/');
  return {
    contentDir,
    memo,
    problems,
    rel,
    listFiles(folder, extension) {
      const dir = join(contentDir, folder);
      if (!existsSync(dir)) {
        problems.push({ file: rel(dir), line: 1, field: 'file', message: 'folder is missing' });
        return [];
      }
      return readdirSync(dir)
        .filter((name) => name.endsWith(extension))
        .sort()
        .map((name) => join(dir, name));
    },
    markdownToHtml(markdown) {
      let html = memo.get<string>('markdown', markdown);
      if (html === undefined) memo.set('markdown', markdown, (html = renderMarkdown(markdown)));
      return html;
    },
  };
}
