// Gzipped HTML size per page type: what a visitor downloads for the page itself.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { OutputFile } from './output.ts';

/** Above this many pages, a sample is measured (plus the largest page). */
export const SAMPLE_SIZE = 2000;

export interface GzipStats {
  measured: number;
  medianBytes: number;
  maxBytes: number;
}

export const gzipBytes = (data: Buffer | string) => gzipSync(data, { level: 6 }).length;

/** Median and largest gzip size of `files` (sorted by path), or undefined when there are none. */
export function htmlGzipStats(files: readonly OutputFile[]): GzipStats | undefined {
  if (files.length === 0) return undefined;
  const sizes = sample(files)
    .map((file) => gzipBytes(readFileSync(file.path)))
    .sort((a, b) => a - b);
  return { measured: sizes.length, medianBytes: median(sizes), maxBytes: sizes.at(-1) ?? 0 };
}

/**
 * All files when there are at most SAMPLE_SIZE; otherwise SAMPLE_SIZE files evenly spaced in
 * path order (the same every run) plus the largest file by raw size.
 */
function sample(files: readonly OutputFile[]): OutputFile[] {
  if (files.length <= SAMPLE_SIZE) return [...files];
  const picked = new Set<OutputFile>();
  for (let index = 0; index < SAMPLE_SIZE; index += 1) {
    picked.add(files[Math.floor((index * files.length) / SAMPLE_SIZE)] as OutputFile);
  }
  picked.add(files.reduce((largest, file) => (file.bytes > largest.bytes ? file : largest)));
  return [...picked];
}

function median(sorted: readonly number[]): number {
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? 0) + upper) / 2;
}
