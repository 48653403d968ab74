// The page half of the build manifest: for every page, the hash of the data it was rendered from,
// in one text file beside build-manifest.json, grouped by render task:
//   #city:Vermont|Burlington
//   /city/Vermont/Burlington<TAB>hash
//   /city/Vermont/Burlington/ad/1001<TAB>hash
// It is kept out of build-manifest.json so that no build holds the hashes of every page in memory:
// each render thread appends the sections of the tasks it ran to a part file of its own as it goes,
// and the build then joins the parts with the sections of the tasks it skipped (unchanged since the
// last build). The order of sections carries no meaning.
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { BufferedFileWriter } from '../buffered-file-writer.ts';

/** `path<TAB>hash` lines of one task's pages, each ending with a newline. */
export type PageHashLines = string;

/** Page path → data hash, from a task's lines. */
export function pageHashes(lines: PageHashLines): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of lines.split('\n')) {
    const tab = line.lastIndexOf('\t');
    if (tab > 0) map.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return map;
}

/** The last build's page hashes, read once; a task's lines are cut out when asked for. */
export interface PageHashFile {
  /** The task's lines, or undefined when the last build has no section for it. */
  lines(taskId: string): PageHashLines | undefined;
  taskIds(): IterableIterator<string>;
}

export function readPageHashFile(file: string): PageHashFile | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const sections = new Map<string, [start: number, end: number]>();
  let at = 0;
  while (at < text.length) {
    const headerEnd = text.indexOf('\n', at);
    if (text[at] !== '#' || headerEnd === -1) return undefined; // not a file we wrote: start afresh
    const next = text.indexOf('\n#', headerEnd);
    const end = next === -1 ? text.length : next + 1;
    sections.set(text.slice(at + 1, headerEnd), [headerEnd + 1, end]);
    at = end;
  }
  return {
    lines(taskId) {
      const range = sections.get(taskId);
      return range && text.slice(range[0], range[1]);
    },
    taskIds: () => sections.keys(),
  };
}

/** Appends task sections to a file, a few at a time. */
export class PageHashWriter {
  private readonly file: BufferedFileWriter;

  constructor(path: string) {
    this.file = new BufferedFileWriter(path);
  }

  add(taskId: string, lines: PageHashLines): void {
    this.file.write(`#${taskId}\n${lines}`);
  }

  /** Copies a whole file of sections (a render thread's part). */
  addFile(path: string): void {
    this.file.writeFile(path);
  }

  close(): void {
    this.file.close();
  }
}

/**
 * Writes the new page-hash file: the sections of the tasks this build skipped, from the last
 * file, then every part the render threads wrote (which are removed). Replaces `file` at once.
 */
export function joinPageHashes(
  file: string,
  last: PageHashFile | undefined,
  skipped: Iterable<string>,
  parts: readonly string[],
): void {
  const writer = new PageHashWriter(`${file}.next`);
  for (const taskId of skipped) {
    const lines = last?.lines(taskId);
    if (lines !== undefined) writer.add(taskId, lines);
  }
  for (const part of parts) {
    if (!existsSync(part)) continue;
    writer.addFile(part);
    rmSync(part);
  }
  writer.close();
  renameSync(`${file}.next`, file);
}
