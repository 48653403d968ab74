// A published ad found by its id alone (`/report?ad=…` and `/messages/new?ad=…` name no city), in
// the id index the content step writes (core/content/ad-id-index-file.ts): a binary search where
// the index lies on disk, then the ad's one line of its state's file. Nothing is loaded or kept,
// so a lookup costs the same at a thousand ads as at a million, and the server's memory does not
// grow with them.
//
// A publish replaces the state files and then the id index under a running server (renamed into
// place a few renames apart: pipeline/compile/state-ad-files.ts, commit). A line is taken only if
// it is whole and is this ad's: exactly one line where the index said, starting with this id.
// Between those renames a reader may hold an index of one version and a state file of the other;
// it then looks again, with the index as it is by then. Should it still not agree (a publish that
// stalled between its renames), the ad reads as not found for that moment, never as another ad's
// or a cut line, as a city's ads do (core/content/index.ts).
import type { AdCounts } from '../schemas/compiled-content.ts';
import { adIdIndexFile, findAdPlace, type AdPlace } from './ad-id-index-file.ts';
import { readFileRange } from './read-range.ts';
import {
  adIdsForCity,
  adInMemory,
  compiledContentDir,
  getAd,
  getAdCounts,
  stateAdsFile,
  type CompiledAd,
} from './index.ts';

/** Looks before giving up on a line that is not the index's (a publish renaming its files). */
const ATTEMPTS = 4;
/** Milliseconds between the later looks: the renames of a publish take far less. */
const PAUSE_MS = 2;

export function findPublishedAd(id: number): CompiledAd | undefined {
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const inMemory = adInMemory(id);
  if (inMemory !== undefined) return inMemory ?? undefined;
  const dir = compiledContentDir();
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (attempt > 1) pause(PAUSE_MS);
    const place = findAdPlace(adIdIndexFile(dir), id);
    if (place === 'no-index') return findByReadingEveryCity(id);
    if (!place) return undefined;
    const ad = adAt(stateAdsFile(place.state, dir), place, id);
    if (ad) return ad;
  }
  return undefined;
}

/** The ad's line where the index says it is, if that is exactly one whole line of this ad. */
function adAt(file: string, place: AdPlace, id: number): CompiledAd | undefined {
  // A state file gone (its state has no ads left since) is as a line that does not match.
  const buffer = readFileRange(file, place.offset, place.bytes);
  if (!buffer) return undefined;
  const line = buffer.toString('utf8');
  // JSON escapes line breaks in strings, so a newline only ever ends a line, and `{"id":` only
  // ever starts one: one newline, at the end, after this id, is exactly this ad's line.
  const head = `{"id":${id}`;
  if (
    !line.startsWith(head) ||
    (line[head.length] !== ',' && line[head.length] !== '}') ||
    line.indexOf('\n') !== line.length - 1
  )
    return undefined;
  const ad = JSON.parse(line) as CompiledAd;
  return ad.id === id ? ad : undefined;
}

/** Sleeps this thread (a publish is between two renames: give it the moment it needs). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

let placed: { counts: AdCounts; places: [string, string][]; placeOfId: Map<number, number> };

/**
 * Compiled content written before the id index existed (a server started on an older `.content/`
 * without a build): every city's ids are read on the first lookup and kept, by id, until the next
 * publish. Slow and memory-hungry at scale (docs/benchmarks.md, "Finding an ad by id"); any
 * compile writes the index.
 */
function findByReadingEveryCity(id: number): CompiledAd | undefined {
  const counts = getAdCounts();
  if (placed?.counts !== counts) {
    const places: [string, string][] = [];
    const placeOfId = new Map<number, number>();
    for (const [state, cities] of Object.entries(counts))
      for (const city of Object.keys(cities)) {
        places.push([state, city]);
        for (const adId of adIdsForCity(state, city)) placeOfId.set(adId, places.length - 1);
      }
    placed = { counts, places, placeOfId };
  }
  const place = placed.places[placed.placeOfId.get(id) ?? -1];
  return place && getAd(place[0], place[1], id);
}
