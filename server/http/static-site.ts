// Serves the prerendered site from its output folder: decoded names on disk, cache headers that
// suit hashed assets and HTML, conditional requests (ETag, Last-Modified), byte ranges, brotli or
// gzip, and the specific not-found screens with HTTP 404.
import {
  closeSync,
  createReadStream,
  existsSync,
  fstatSync,
  readFile,
  readSync,
  type Stats,
} from 'node:fs';
import { promisify } from 'node:util';
import { join, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { Context, MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import {
  cityPath,
  NOT_FOUND_FILES,
  outputFileForPath,
  routes,
  statePath,
} from '../../core/paths.ts';
import { openIfThere } from '../../core/content/read-range.ts';
import { isNotModified, requestedRange } from './http-conditional.ts';
import {
  chooseEncoding,
  compressedCache,
  isCompressible,
  MIN_COMPRESSED_SIZE,
  type CompressedCache,
  type CompressedCacheSettings,
} from './static-compression.ts';

type NotFoundKind = keyof typeof NOT_FOUND_FILES;

/** The request path as names on disk, or undefined when it cannot be a file of ours. */
export function pathSegments(rawPath: string): string[] | undefined {
  const segments: string[] = [];
  for (const raw of rawPath.split('/')) {
    if (raw === '') continue;
    let name: string;
    try {
      name = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (name === '.' || name === '..' || /[/\\\0]/.test(name)) return undefined;
    segments.push(name);
  }
  return segments;
}

/**
 * A file of the site, opened: its stats and its bytes come from the same file even when the build
 * replaces it meanwhile (publishing renames a new file over the old one, and a reader that opened
 * the old one goes on reading it), so a length and a body never belong to two versions. Opened and
 * stat'ed synchronously, as the stat alone was before: a few microseconds, where three trips
 * through libuv's threadpool would cost more than the answer (most come from the compressed cache).
 */
interface OpenFile {
  fd: number;
  stats: Stats;
}

function openFile(path: string): OpenFile | undefined {
  const fd = openIfThere(path);
  if (fd === undefined) return undefined;
  try {
    const stats = fstatSync(fd);
    if (stats.isFile()) return { fd, stats };
  } catch {
    // As if it were not there.
  }
  closeSync(fd);
  return undefined;
}

/** Bodies up to this size are read at once and the file closed; bigger ones are streamed from it. */
const READ_AT_ONCE_BYTES = 64 * 1024;

/** Atom, as feed readers expect it; Hono's table knows .xml only as application/xml. */
export const ATOM_TYPE = 'application/atom+xml; charset=utf-8';

/** A city's feed (core/paths.ts cityFeed) is Atom; other files go by their extension. */
const mimeTypeOf = (path: string) =>
  path.endsWith(`${sep}feed.xml`) ? ATOM_TYPE : (getMimeType(path) ?? 'application/octet-stream');

/**
 * Hashed build assets and members' photos (named by their bytes' digest:
 * pipeline/compile/published-photos.ts) never change; pages and other files are revalidated.
 */
function cacheControlFor(segments: readonly string[], mimeType: string): string {
  if (segments[0] === 'assets' || segments[0] === 'photos')
    return 'public, max-age=31536000, immutable';
  if (mimeType.startsWith('text/html')) return 'public, max-age=0, must-revalidate';
  // Feed readers poll: five minutes, as search feeds; then a conditional GET, answered 304.
  if (mimeType === ATOM_TYPE) return 'public, max-age=300';
  return 'public, max-age=3600';
}

const readWhole: (fd: number) => Promise<Buffer> = promisify(readFile);

const fileStream = (path: string) =>
  Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;

/** The file's bytes from `start` to `end` (inclusive), from the open file, which is then closed. */
function fileBody(
  { fd, stats }: OpenFile,
  range = { start: 0, end: stats.size - 1 },
): Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> {
  const length = range.end - range.start + 1;
  if (length > READ_AT_ONCE_BYTES)
    return Readable.toWeb(
      createReadStream('', { fd, start: range.start, end: range.end, autoClose: true }),
    ) as ReadableStream<Uint8Array>;
  try {
    const bytes = new Uint8Array(Math.max(0, length));
    let done = 0;
    while (done < length) {
      const count = readSync(fd, bytes, done, length - done, range.start + done);
      if (count === 0) break;
      done += count;
    }
    return bytes.subarray(0, done);
  } finally {
    closeSync(fd);
  }
}

async function sendFile(
  c: Context,
  compressed: CompressedCache,
  path: string,
  file: OpenFile,
  status: 200 | 404,
  cacheControl: string,
) {
  let bodyTaken = false;
  try {
    return await answerWithFile();
  } finally {
    if (!bodyTaken) closeSync(file.fd);
  }

  async function answerWithFile() {
    const { stats } = file;
    const mimeType = mimeTypeOf(path);
    const compressible = isCompressible(mimeType) && stats.size >= MIN_COMPRESSED_SIZE;
    const isHead = c.req.method === 'HEAD';
    c.header('Content-Type', mimeType);
    c.header('Cache-Control', status === 404 ? 'no-cache' : cacheControl);
    if (compressible) c.header('Vary', 'Accept-Encoding');

    if (status === 200) {
      // Weak: the same tag stands for the file whether it is sent compressed or not.
      const version = {
        etag: `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`,
        mtimeMs: stats.mtimeMs,
      };
      c.header('ETag', version.etag);
      c.header('Last-Modified', stats.mtime.toUTCString());
      c.header('Accept-Ranges', 'bytes');
      const conditions = {
        ifNoneMatch: c.req.header('If-None-Match'),
        ifModifiedSince: c.req.header('If-Modified-Since'),
      };
      if (isNotModified(conditions, version)) return c.body(null, 304);

      const range = isHead
        ? ({ kind: 'whole' } as const)
        : requestedRange(
            { range: c.req.header('Range'), ifRange: c.req.header('If-Range') },
            stats.size,
            version,
          );
      if (range.kind === 'unsatisfiable') {
        c.header('Content-Range', `bytes */${stats.size}`);
        return c.body(null, 416);
      }
      if (range.kind === 'part') {
        // A part is a range of the file's own bytes, so it is never compressed.
        c.header('Content-Range', `bytes ${range.start}-${range.end}/${stats.size}`);
        c.header('Content-Length', String(range.end - range.start + 1));
        bodyTaken = true;
        return c.body(fileBody(file, range), 206);
      }
    }

    // HEAD gets the headers GET would, and no body (the file is not read).
    const respond = (body: () => Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>) =>
      isHead ? c.body(null, status) : c.body(body(), status);
    const encoding = compressible ? chooseEncoding(c.req.header('Accept-Encoding')) : undefined;
    const copy = encoding
      ? await compressed.get(path, stats, encoding, () => readWhole(file.fd))
      : undefined;
    if (encoding && copy) {
      c.header('Content-Encoding', encoding);
      if (copy.kind === 'memory') {
        c.header('Content-Length', String(copy.data.length));
        // A view of the cached bytes, not a copy.
        const { buffer, byteOffset, length } = copy.data;
        return respond(() => new Uint8Array(buffer as ArrayBuffer, byteOffset, length));
      }
      c.header('Content-Length', String(copy.size));
      return respond(() => fileStream(copy.path));
    }
    c.header('Content-Length', String(stats.size));
    if (isHead) return c.body(null, status);
    bodyTaken = true;
    return c.body(fileBody(file), status);
  }
}

/**
 * Which not-found screen a path gets: State, City or Ad not found where the path has the shape of
 * a state, city or ad page (the routes of core/paths.ts, as the pages' data hooks decide), Page Not
 * Found otherwise.
 */
export function notFoundKindFor(pathname: string, siteDir: string): NotFoundKind {
  const exists = (path: string) => existsSync(join(siteDir, outputFileForPath(path)));
  if (routes.state.match(pathname)) return 'state';
  const ad = routes.ad.match(pathname);
  const place = ad ?? routes.city.match(pathname);
  if (!place) return 'page';
  if (!exists(statePath(place.stateName))) return 'state';
  if (!exists(cityPath(place.stateName, place.cityName))) return 'city';
  return ad ? 'ad' : 'page';
}

export interface StaticSiteSettings {
  compression?: CompressedCacheSettings;
}

export function staticSite(siteDir: string, settings: StaticSiteSettings = {}): MiddlewareHandler {
  const root = siteDir.endsWith(sep) ? siteDir : siteDir + sep;
  const compressed = compressedCache(settings.compression);
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const rawPath = new URL(c.req.url).pathname;
    const segments = pathSegments(rawPath);
    if (segments) {
      const candidates = [join(root, ...segments), join(root, ...segments, 'index.html')];
      for (const path of candidates) {
        const file =
          path.startsWith(root) || path === join(root, 'index.html') ? openFile(path) : undefined;
        if (file)
          return sendFile(
            c,
            compressed,
            path,
            file,
            200,
            cacheControlFor(segments, mimeTypeOf(path)),
          );
      }
    }
    const kind = segments ? notFoundKindFor(rawPath, root) : 'page';
    const notFoundPath = join(root, NOT_FOUND_FILES[kind]);
    const file = openFile(notFoundPath);
    if (!file) return c.text('Not found', 404);
    return sendFile(c, compressed, notFoundPath, file, 404, 'no-cache');
  };
}
