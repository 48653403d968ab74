// Serves the prerendered site from its output folder: decoded names on disk, cache headers that
// suit hashed assets and HTML, ETags, and the specific not-found screens with HTTP 404.
import { createReadStream, existsSync, statSync, type Stats } from 'node:fs';
import { join, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { Context, MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { NOT_FOUND_FILES } from '../src/paths.ts';

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

function fileStats(path: string): Stats | undefined {
  try {
    const stats = statSync(path);
    return stats.isFile() ? stats : undefined;
  } catch {
    return undefined;
  }
}

/** Hashed build assets never change; pages and other files are revalidated. */
function cacheControlFor(segments: readonly string[], mimeType: string): string {
  if (segments[0] === 'assets') return 'public, max-age=31536000, immutable';
  if (mimeType.startsWith('text/html')) return 'public, max-age=0, must-revalidate';
  return 'public, max-age=3600';
}

function sendFile(c: Context, path: string, stats: Stats, status: 200 | 404, cacheControl: string) {
  const mimeType = getMimeType(path) ?? 'application/octet-stream';
  const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
  c.header('Content-Type', mimeType);
  c.header('Cache-Control', status === 404 ? 'no-cache' : cacheControl);
  if (status === 200) {
    c.header('ETag', etag);
    c.header('Last-Modified', stats.mtime.toUTCString());
    if (c.req.header('If-None-Match') === etag) return c.body(null, 304);
  }
  if (c.req.method === 'HEAD') {
    c.header('Content-Length', String(stats.size));
    return c.body(null, status);
  }
  const stream = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
  return c.body(stream, status);
}

/** Which not-found screen a path gets: State, City or Ad not found where the path says so. */
export function notFoundKindFor(segments: readonly string[], siteDir: string): NotFoundKind {
  const [section, stateName, cityName, sub] = segments;
  const exists = (...parts: string[]) => existsSync(join(siteDir, ...parts, 'index.html'));
  if (section === 'state' && segments.length === 2) return 'state';
  if (section !== 'city' || !stateName || !cityName) return 'page';
  if (!exists('state', stateName)) return 'state';
  if (!exists('city', stateName, cityName)) return 'city';
  if (sub === 'ad' && segments.length === 5) return 'ad';
  return 'page';
}

export function staticSite(siteDir: string): MiddlewareHandler {
  const root = siteDir.endsWith(sep) ? siteDir : siteDir + sep;
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const rawPath = new URL(c.req.url).pathname;
    const segments = pathSegments(rawPath);
    if (segments) {
      const candidates = [join(root, ...segments), join(root, ...segments, 'index.html')];
      for (const path of candidates) {
        const stats =
          path.startsWith(root) || path === join(root, 'index.html') ? fileStats(path) : undefined;
        if (stats)
          return sendFile(c, path, stats, 200, cacheControlFor(segments, getMimeType(path) ?? ''));
      }
    }
    const kind = segments ? notFoundKindFor(segments, root) : 'page';
    const notFoundPath = join(root, NOT_FOUND_FILES[kind]);
    const stats = fileStats(notFoundPath);
    if (!stats) return c.text('Not found', 404);
    return sendFile(c, notFoundPath, stats, 404, 'no-cache');
  };
}
