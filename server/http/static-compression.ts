// Compressed copies of static files, brotli or gzip, whichever the client prefers. A `.br` or
// `.gz` file beside the original (precompressed at build time) is used as it is; otherwise the
// file is compressed on first request and kept in a small in-memory cache bounded in bytes.
// Compression runs on libuv's threadpool, so at most two files are compressed at once; past
// that a request gets the file uncompressed rather than waiting.
import { readFile, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

import type { Encoding } from '../../core/encoding.ts';

export type { Encoding };

const compressors: Record<Encoding, (data: Buffer) => Promise<Buffer>> = {
  // Quality 5 compresses an HTML page better than gzip -9 in a fraction of quality 11's time.
  br: (data) =>
    promisify(brotliCompress)(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gzip: (data) => promisify(gzip)(data, { level: 6 }),
};

const SIBLING_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** Files below this size are sent as they are: compression would save almost nothing. */
export const MIN_COMPRESSED_SIZE = 1024;

const COMPRESSIBLE =
  /^(?:text\/|application\/(?:javascript|json|xml|manifest\+json|rss\+xml|atom\+xml)|image\/svg\+xml)/;

export const isCompressible = (mimeType: string) => COMPRESSIBLE.test(mimeType);

/** br when the client accepts it, else gzip, else none; q-values and `*` respected. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((param) => param.startsWith('q='));
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const weight = (name: Encoding) => weights.get(name) ?? weights.get('*') ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  return weight('gzip') > 0 ? 'gzip' : undefined;
}

export interface CompressedCacheSettings {
  /** Bytes of compressed copies kept in memory. Default 32 MiB. */
  maxBytes?: number;
  /** Larger files are never compressed on the fly. Default 2 MiB. */
  maxFileBytes?: number;
  /** Files compressed at the same time. Default 2. */
  maxConcurrent?: number;
}

export type CompressedCopy =
  { kind: 'memory'; data: Buffer } | { kind: 'sibling'; path: string; size: number };

export function compressedCache(settings: CompressedCacheSettings = {}) {
  const maxBytes = settings.maxBytes ?? 32 * 1024 * 1024;
  const maxFileBytes = settings.maxFileBytes ?? 2 * 1024 * 1024;
  const maxConcurrent = settings.maxConcurrent ?? 2;
  // Insertion order is use order: a hit is moved to the end, the first entry goes first.
  const cache = new Map<string, Buffer>();
  const inFlight = new Map<string, Promise<Buffer>>();
  let cachedBytes = 0;

  function keep(key: string, data: Buffer) {
    if (data.length > maxBytes) return;
    cache.set(key, data);
    cachedBytes += data.length;
    for (const [oldKey, oldData] of cache) {
      if (cachedBytes <= maxBytes) break;
      cache.delete(oldKey);
      cachedBytes -= oldData.length;
    }
  }

  async function sibling(path: string, file: Stats, encoding: Encoding) {
    try {
      const siblingPath = path + SIBLING_SUFFIX[encoding];
      const siblingStats = await stat(siblingPath);
      // A sibling older than the file is stale: the build rewrote the file and not it.
      if (siblingStats.isFile() && siblingStats.mtimeMs >= file.mtimeMs)
        return { kind: 'sibling' as const, path: siblingPath, size: siblingStats.size };
    } catch {
      // No sibling: compress in memory.
    }
    return undefined;
  }

  return {
    /** The compressed copy of a file, or undefined to send it as it is. */
    async get(
      path: string,
      file: Stats,
      encoding: Encoding,
      /** The file's bytes, from the file `file` describes (an open file, not the path again). */
      read: () => Promise<Buffer> = () => readFile(path),
    ): Promise<CompressedCopy | undefined> {
      // The inode too: publishing replaces a file by renaming a new one over it, and the new one
      // may have the old one's size and, on a coarse clock, its modification time.
      const key = `${encoding}\n${path}\n${file.ino}\n${file.size}\n${file.mtimeMs}`;
      const cached = cache.get(key);
      if (cached) {
        cache.delete(key);
        cache.set(key, cached);
        return { kind: 'memory', data: cached };
      }
      const precompressed = await sibling(path, file, encoding);
      if (precompressed) return precompressed;
      if (file.size > maxFileBytes) return undefined;
      let pending = inFlight.get(key);
      if (!pending) {
        if (inFlight.size >= maxConcurrent) return undefined;
        pending = read()
          .then((data) => compressors[encoding](data))
          .then((data) => {
            keep(key, data);
            return data;
          })
          .finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      try {
        return { kind: 'memory', data: await pending };
      } catch {
        return undefined;
      }
    },
  };
}

export type CompressedCache = ReturnType<typeof compressedCache>;
