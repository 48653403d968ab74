// Reading a multipart/form-data post with photos (the posting and edit forms, with or without
// JavaScript) as it streams in, with busboy: each file goes to a temporary file of its own (mode
// 0600, in a folder only this process reads) and never whole into memory, so eight members
// uploading six 15 MB photos each cost the server a few buffers, not 720 MB. A file over the size
// limit stops being written at the limit and is marked; files beyond the count are marked and not
// written at all. The fields (text) come back as the form's other fields. `dispose()` deletes the
// files: the route calls it whatever happens (the uploaded file itself is never kept).
import busboy from 'busboy';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Refusal } from '../../core/refusal.ts';

export interface UploadedFile {
  /** The form field it came in. */
  field: string;
  /** The name the browser gave it (only ever shown back to its member, never trusted). */
  name: string;
  /** Where it is, until dispose(); undefined for a file not written (too large, one too many). */
  path?: string;
  size: number;
  /** Over the size limit: not kept. */
  tooLarge: boolean;
  /** Beyond the number of files taken: not kept. */
  tooMany: boolean;
}

export interface Upload {
  /** Text fields; a name sent more than once is a list, in order. */
  fields: Record<string, string | string[]>;
  /** The files, in the order sent (empty file inputs left out). */
  files: UploadedFile[];
  dispose(): Promise<void>;
}

export interface UploadLimits {
  /** Files taken; more are marked tooMany. */
  maxFiles: number;
  maxFileBytes: number;
  /** Text fields, and the bytes of each. */
  maxFields?: number;
  maxFieldBytes?: number;
}

export const UNREADABLE_UPLOAD = 'The form could not be read. Please try again.';

/**
 * Reads the request's multipart body (the caller checked the Content-Type); one that cannot be
 * read is refused (thrown), its files already deleted.
 */
export async function readUpload(request: Request, limits: UploadLimits): Promise<Upload> {
  if (!request.body) throw new Refusal('invalid', UNREADABLE_UPLOAD);
  const dir = await mkdtemp(join(tmpdir(), 'localboard-upload-'));
  const files: UploadedFile[] = [];
  const fields: Record<string, string | string[]> = {};
  const dispose = () => rm(dir, { recursive: true, force: true });
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
      limits: {
        files: limits.maxFiles + 1,
        fileSize: limits.maxFileBytes,
        fields: limits.maxFields ?? 100,
        fieldSize: limits.maxFieldBytes ?? 64 * 1024,
        parts: (limits.maxFields ?? 100) + limits.maxFiles + 1,
      },
    });
  } catch {
    await dispose();
    throw new Refusal('invalid', UNREADABLE_UPLOAD);
  }
  const writes: Promise<void>[] = [];
  let kept = 0;
  parser.on('field', (name, value) => {
    const before = fields[name];
    if (before === undefined) fields[name] = value;
    else fields[name] = Array.isArray(before) ? [...before, value] : [before, value];
  });
  parser.on('file', (field, stream, info) => {
    const entry: UploadedFile = {
      field,
      name: info.filename ?? '',
      size: 0,
      tooLarge: false,
      tooMany: false,
    };
    stream.on('data', (chunk: Buffer) => (entry.size += chunk.length));
    stream.on('limit', () => (entry.tooLarge = true));
    files.push(entry);
    if (kept >= limits.maxFiles) {
      entry.tooMany = true;
      stream.resume();
      return;
    }
    kept += 1;
    const path = join(dir, `file-${kept}`);
    entry.path = path;
    writes.push(pipeline(stream, createWriteStream(path, { mode: 0o600 })));
  });
  // Beyond `files`: busboy stops emitting them; the one over the count is already marked.
  parser.on('filesLimit', () => {
    const extra: UploadedFile = {
      field: '',
      name: '',
      size: 0,
      tooLarge: false,
      tooMany: true,
    };
    if (!files.some((file) => file.tooMany)) files.push(extra);
  });
  try {
    await pipeline(Readable.fromWeb(request.body as WebReadableStream<Uint8Array>), parser);
    await Promise.all(writes);
  } catch {
    await dispose();
    throw new Refusal('invalid', UNREADABLE_UPLOAD);
  }
  // An empty file input sends a part with no name and no bytes: nothing was chosen.
  const chosen = files.filter((file) => !(file.name === '' && file.size === 0 && !file.tooMany));
  for (const file of chosen) if (file.tooLarge && file.path) delete file.path;
  return { fields, files: chosen, dispose };
}
