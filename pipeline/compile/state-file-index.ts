// What the compiler learns of a state's ads file while it writes it (state-file-writer.ts), learnt
// again by reading the file: each city's offset, bytes, ads and digest, and each ad's id and line.
// An instance that does not build receives the state files alone (runtime-follower.ts: an index
// travelling with them would change wherever a city's offset moved) and makes the ads index and
// the id index from them, equal to the publisher's.
import { createHash, type Hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CityAdsEntry } from '../../core/schemas/compiled-content.ts';
import { AdIdList } from './ad-id-index.ts';
import { idOfLineBytes } from '../../core/content/ad-lines.ts';

const LF = 0x0a;
/** The start of a compiled ad's line up to its city: `{"id":1,"state":"Nevada","city":"…"`. */
const HEAD = /^\{"id":\d+,"state":"(?:[^"\\]|\\.)*","city":("(?:[^"\\]|\\.)*")/;

/** The city of the line at `start`..`end` (its newline excluded). */
function cityOfLine(bytes: Buffer, start: number, end: number): string {
  const head = HEAD.exec(bytes.toString('utf8', start, Math.min(end, start + 512)));
  if (head) return JSON.parse(head[1]!) as string;
  return (JSON.parse(bytes.toString('utf8', start, end)) as { city: string }).city;
}

/** A state's ads file read back: where each city's lines are (and their digest), and each ad's. */
export function indexStateFile(file: string): {
  cities: Record<string, CityAdsEntry>;
  ids: AdIdList;
} {
  const bytes = readFileSync(file);
  const cities: Record<string, CityAdsEntry> = {};
  const ids = new AdIdList();
  let city: string | undefined;
  let entry: CityAdsEntry | undefined;
  let digest: Hash | undefined;
  const endCity = () => {
    if (entry && digest) entry.digest = digest.digest('base64url');
  };
  for (let start = 0; start < bytes.length;) {
    const newline = bytes.indexOf(LF, start);
    if (newline === -1) throw new Error(`${file} does not end with a whole line`);
    const lineCity = cityOfLine(bytes, start, newline);
    if (lineCity !== city) {
      endCity();
      city = lineCity;
      entry = { offset: start, bytes: 0, ads: 0, digest: '' };
      cities[city] = entry;
      digest = createHash('sha1');
    }
    const end = newline + 1;
    ids.add(idOfLineBytes(bytes, start, newline), start, end - start);
    digest!.update(bytes.subarray(start, end));
    entry!.bytes += end - start;
    entry!.ads += 1;
    start = end;
  }
  endCity();
  return { cities, ids };
}
