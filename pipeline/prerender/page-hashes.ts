// The page half of the build manifest: for every page, the hash of the data it was rendered from,
// in one text file beside build-manifest.json, grouped by render task:
//   #city:Vermont|Burlington
//   /city/Vermont/Burlington<TAB>hash
//   /city/Vermont/Burlington/ad/1001<TAB>hash
// It is kept out of build-manifest.json so that no build holds the hashes of every page in memory:
// each render thread appends the sections of the tasks it ran to a part file of its own as it goes,
// and the build then joins the parts with the sections of the tasks it skipped (unchanged since the
// last build), copied as bytes. The last file is never read whole either: reading it finds where
// each section is, and a task's lines are read when asked for. The order of sections carries no
// meaning.
import { closeSync, existsSync, fstatSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
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

/** Bytes read at a time: the file is never held whole (at a million pages it is some 70 MB). */
const CHUNK_BYTES = 1 << 20;
const SECTION_START = Buffer.from('\n#');

/** Where a section is: its header line from `header`, its lines from `start` to `end`. */
type Section = [header: number, start: number, end: number];

/**
 * Reads where each task's section is, a chunk at a time, and nothing else: a task's lines are read
 * from the file when asked for, and joinPageHashes() copies the sections it keeps as bytes.
 */
export function readPageHashFile(file: string): PageHashFile | undefined {
  if (!existsSync(file)) return undefined;
  const sections = new Map<string, Section>();
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return new SectionedFile(file, sections);
    let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let base = 0; // file offset of buffer[0]
    let filled = readSync(fd, buffer, 0, buffer.length, 0);
    if (buffer[0] !== 0x23) return undefined; // not a file we wrote: start afresh
    let previous: { id: string; section: Section } | undefined;
    let header = 0; // buffer index of the next header's '#'
    for (;;) {
      let lineEnd = buffer.indexOf(0x0a, header);
      if (lineEnd === -1 || lineEnd >= filled) {
        // The header line goes on past the buffer: move it to the front and read more.
        if (base + filled >= size) return undefined; // a header without lines: not ours
        buffer.copy(buffer, 0, header, filled);
        base += header;
        filled -= header;
        header = 0;
        if (filled === buffer.length) {
          const bigger = Buffer.allocUnsafe(buffer.length * 2);
          buffer.copy(bigger, 0, 0, filled);
          buffer = bigger;
        }
        filled += readSync(fd, buffer, filled, buffer.length - filled, base + filled);
        continue;
      }
      if (previous) previous.section[2] = base + header;
      const id = buffer.toString('utf8', header + 1, lineEnd);
      previous = { id, section: [base + header, base + lineEnd + 1, size] };
      sections.set(id, previous.section);
      // The next header: a '#' at the start of a line, in this chunk or a later one.
      let next = buffer.indexOf(SECTION_START, lineEnd);
      while (next === -1 || next + 1 >= filled) {
        if (base + filled >= size) return new SectionedFile(file, sections);
        // Keep the last byte: it may be the line feed of a header's "\n#".
        const keep = filled - 1;
        buffer.copy(buffer, 0, keep, filled);
        base += keep;
        filled = 1 + readSync(fd, buffer, 1, buffer.length - 1, base + 1);
        next = buffer.indexOf(SECTION_START, 0);
      }
      header = next + 1;
    }
  } finally {
    closeSync(fd);
  }
}

class SectionedFile implements PageHashFile {
  constructor(
    readonly file: string,
    readonly sections: ReadonlyMap<string, Section>,
  ) {}

  lines(taskId: string): PageHashLines | undefined {
    const section = this.sections.get(taskId);
    if (!section) return undefined;
    const [, start, end] = section;
    const bytes = Buffer.allocUnsafe(end - start);
    const fd = openSync(this.file, 'r');
    try {
      readFully(fd, bytes, start);
    } finally {
      closeSync(fd);
    }
    return bytes.toString('utf8');
  }

  taskIds(): IterableIterator<string> {
    return this.sections.keys();
  }

  /** Copies the sections of these tasks, headers and all, through a buffer. */
  copyTo(taskIds: Iterable<string>, writer: BufferedFileWriter): void {
    const fd = openSync(this.file, 'r');
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    try {
      // Sections next to each other in the file are copied as one range.
      let from = -1;
      let to = -1;
      const copy = () => {
        for (let at = from; at < to; at += buffer.length) {
          const bytes = Math.min(buffer.length, to - at);
          readFully(fd, buffer.subarray(0, bytes), at);
          writer.writeBytes(buffer.subarray(0, bytes));
        }
      };
      for (const taskId of taskIds) {
        const section = this.sections.get(taskId);
        if (!section) continue;
        if (section[0] !== to) {
          copy();
          from = section[0];
        }
        to = section[2];
      }
      copy();
    } finally {
      closeSync(fd);
    }
  }
}

function readFully(fd: number, into: Buffer, position: number): void {
  for (let done = 0; done < into.length;) {
    const count = readSync(fd, into, done, into.length - done, position + done);
    if (count === 0) throw new Error('The page-hash file ended early');
    done += count;
  }
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

  /** Copies the sections of these tasks from the last file, as bytes. */
  addSections(last: SectionedFile, taskIds: Iterable<string>): void {
    last.copyTo(taskIds, this.file);
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
  if (last instanceof SectionedFile) {
    writer.addSections(last, skipped);
  } else {
    for (const taskId of skipped) {
      const lines = last?.lines(taskId);
      if (lines !== undefined) writer.add(taskId, lines);
    }
  }
  for (const part of parts) {
    if (!existsSync(part)) continue;
    writer.addFile(part);
    rmSync(part);
  }
  writer.close();
  renameSync(`${file}.next`, file);
}
