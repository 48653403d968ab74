// Conditional and range requests for static files (RFC 9110 §13 and §14): If-None-Match with
// lists, `*` and weak comparison, If-Modified-Since, and single byte ranges with If-Range.

export interface Validators {
  /** The file's entity tag, weak: W/"…". */
  etag: string;
  /** Last modification, in ms. HTTP dates have whole seconds. */
  mtimeMs: number;
}

const opaqueTag = (tag: string) => tag.trim().replace(/^W\//, '');

/** The entity tags of an If-None-Match or If-Match list; `*` stays `*`. */
function entityTags(header: string): string[] {
  // A tag is "…" with no quote inside, so commas inside quotes cannot split one.
  return header.trim() === '*' ? ['*'] : (header.match(/(?:W\/)?"[^"]*"/g) ?? []);
}

/**
 * Whether a GET or HEAD may be answered 304 Not Modified. If-None-Match uses weak comparison
 * and, when present, If-Modified-Since is not looked at (§13.1.3).
 */
export function isNotModified(
  headers: { ifNoneMatch?: string; ifModifiedSince?: string },
  file: Validators,
): boolean {
  if (headers.ifNoneMatch !== undefined) {
    const tags = entityTags(headers.ifNoneMatch);
    return tags.some((tag) => tag === '*' || opaqueTag(tag) === opaqueTag(file.etag));
  }
  if (headers.ifModifiedSince !== undefined) {
    const since = Date.parse(headers.ifModifiedSince);
    if (Number.isNaN(since)) return false;
    return Math.floor(file.mtimeMs / 1000) <= Math.floor(since / 1000);
  }
  return false;
}

export type RangeAnswer =
  { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * What a Range header asks of a file of `size` bytes. One byte range is served as 206; several
 * ranges, other units, a malformed header, and an If-Range that does not match get the whole file.
 */
export function requestedRange(
  headers: { range?: string; ifRange?: string },
  size: number,
  file: Validators,
): RangeAnswer {
  if (!headers.range) return { kind: 'whole' };
  if (headers.ifRange !== undefined && !ifRangeMatches(headers.ifRange, file))
    return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(headers.range);
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    // A suffix: the last n bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
}

/**
 * If-Range needs a strong validator (§13.1.5): our entity tags are weak, so only a date equal
 * to the file's Last-Modified lets the range through.
 */
function ifRangeMatches(ifRange: string, file: Validators): boolean {
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return false;
  const date = Date.parse(value);
  return !Number.isNaN(date) && Math.floor(date / 1000) === Math.floor(file.mtimeMs / 1000);
}
