// A city's ads read a window of lines at a time, for the prerenderer (index.ts, readInWindows):
// it renders a city's pages in list order (its list pages, then each ad's page, then its feed), so
// each window of about a megabyte is read once a pass, and the city's lines are never all in
// memory at once. At a million ads the largest city is 20 MB of lines: held whole, as a string in
// the heap of each thread rendering such a city, it made up a fifth of the pages step's memory.
// What is kept for the whole city is where each line starts and ends, and its ad's id.
import { closeSync, openSync, readSync } from 'node:fs';
import type { CityAdsEntry, CompiledAd } from '../schemas/compiled-content.ts';
import { forEachLine, idOfLineBytes } from './ad-lines.ts';
import type { CityAds } from './city-ads.ts';

/** Bytes read at a time: a window holds some 1,600 ads of the generated million. */
export const WINDOW_BYTES = 1 << 20;

/**
 * The thread's one window, and whose it is: the cities kept (index.ts) take turns in it. A buffer
 * a city, sized to it, left thousands of small blocks to the garbage collector, and malloc's arena
 * grew by some 40 MB in the million-ad pages step.
 */
const window: { buffer: Buffer; at: number; filled: number; reader?: object } = {
  buffer: Buffer.alloc(0),
  at: 0,
  filled: 0,
};

/**
 * The ads of the city at `entry` of `file`, read in windows of `windowBytes` (at least one line).
 * The file must not be replaced while they are read: one process writes the compiled content and
 * then renders it.
 */
export function cityAdsInWindows(
  file: string,
  entry: CityAdsEntry,
  windowBytes = WINDOW_BYTES,
): CityAds {
  const starts: number[] = [];
  const ends: number[] = [];
  const ids: number[] = [];
  forEachLine(file, entry.offset, entry.bytes, (buffer, start, end, at) => {
    starts.push(at);
    ends.push(at + end - start);
    ids.push(idOfLineBytes(buffer, start, end));
  });
  const cityEnd = entry.offset + entry.bytes;
  const reader = {};
  const readWindow = (from: number, atLeast: number) => {
    const length = Math.min(Math.max(windowBytes, atLeast), cityEnd - from);
    if (window.buffer.length < length)
      window.buffer = Buffer.allocUnsafe(Math.max(windowBytes, length));
    const fd = openSync(file, 'r');
    try {
      window.filled = 0;
      window.reader = reader;
      while (window.filled < length) {
        const read = readSync(
          fd,
          window.buffer,
          window.filled,
          length - window.filled,
          from + window.filled,
        );
        if (read === 0) throw new Error(`${file} ended before the ads its index lists`);
        window.filled += read;
      }
    } catch (error) {
      window.reader = undefined;
      throw error;
    } finally {
      closeSync(fd);
    }
    window.at = from;
  };
  return {
    count: ids.length,
    at(index) {
      const start = starts[index];
      const end = ends[index];
      if (start === undefined || end === undefined) throw new Error(`No ad at position ${index}`);
      if (window.reader !== reader || start < window.at || end > window.at + window.filled)
        readWindow(start, end - start);
      const { buffer, at } = window;
      return JSON.parse(buffer.toString('utf8', start - at, end - at)) as CompiledAd;
    },
    ids: () => ids,
  };
}
