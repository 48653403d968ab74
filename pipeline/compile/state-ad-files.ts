// Writes each state's published ads into one file, .content/ads/{State Name}.ndjson: city by city
// (cities in name order), each city's ads in list order, one JSON object a line.
// .content/ads/index.json says where each city's lines are and holds a digest of them, so the site
// reads one city's ads without the rest and the prerenderer tells which cities changed without
// reading any ad. .content/ads/ids.idx says where each ad's line is, by id (ad-id-index.ts), made
// from each state's records ({State Name}.ids), written with its file.
// A state's file is merged from runs: each checked batch of ads (ad-batch-cache.ts) keeps its
// published ads state by state, each state's sorted by `listKey` (list-key.ts) and written
// `{listKey}<TAB>{json}`. The runs of a state are merged a line at a time (merge-runs.ts), so
// memory stays flat whatever the shape of the content. A state's file is rewritten only when its
// runs change.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { adIdIndexFile, stateIdsFile } from '../../core/content/ad-id-index-file.ts';
import { replaceFile } from '../replace-file.ts';
import type { AdsIndex } from '../../core/schemas/compiled-content.ts';
import { scanStateIds, writeAdIdIndex } from './ad-id-index.ts';
import { mergeRuns, type StateRun } from './merge-runs.ts';

export const adsIndexFile = (compiledDir: string) => join(compiledDir, 'ads', 'index.json');

export interface StateRuns {
  state: string;
  /** Identifies the runs' contents: equal when the state's ads are the same. */
  pieces: string;
  /** The runs, in source order: asked for only when the state's file is merged. */
  runs(): StateRun[];
}

export function readAdsIndex(compiledDir: string): AdsIndex {
  try {
    return JSON.parse(readFileSync(adsIndexFile(compiledDir), 'utf8')) as AdsIndex;
  } catch {
    return {};
  }
}

/** The state files of a build, merged but not yet in place. */
export interface StateAdFiles {
  /** The index they make: where each city's ads are, and how many. */
  index: AdsIndex;
  /** State files merged anew (the others were unchanged). */
  written: number;
  /**
   * Puts the new files, the id index and the index in place; removes the files of states with no
   * ads left.
   */
  commit(): void;
  /** Removes the new files (the content has problems: nothing is written). */
  discard(): void;
}

/** Merges the states whose runs changed into `{state}.ndjson.next` files. */
export function mergeStateAdFiles(
  compiledDir: string,
  states: readonly StateRuns[],
  allStates: readonly string[],
): StateAdFiles {
  const adsDir = join(compiledDir, 'ads');
  mkdirSync(adsDir, { recursive: true });
  const previous = readAdsIndex(compiledDir);
  const index: AdsIndex = {};
  const merged: string[] = [];
  /** States whose id records are new (`.next`): merged anew, or read from an older file. */
  const newIds: string[] = [];
  const stateFile = (state: string) => join(adsDir, `${state}.ndjson`);
  const idsFile = (state: string) => stateIdsFile(compiledDir, state);
  // The index lists the states in name order, however the ads were split across files.
  const order = new Map(allStates.map((state, index) => [state, index]));
  const byName = [...states].sort(
    (a, b) => (order.get(a.state) ?? Infinity) - (order.get(b.state) ?? Infinity),
  );
  for (const entry of byName) {
    const file = stateFile(entry.state);
    const before = previous[entry.state];
    if (before?.pieces === entry.pieces && existsSync(file)) {
      index[entry.state] = before;
      // Written before the id index existed: its records come from reading it once.
      if (!existsSync(idsFile(entry.state))) {
        scanStateIds(file).write(`${idsFile(entry.state)}.next`);
        newIds.push(entry.state);
      }
      continue;
    }
    const { cities, ids } = mergeRuns(entry.runs(), `${file}.next`, join(adsDir, '.merging'));
    ids.write(`${idsFile(entry.state)}.next`);
    index[entry.state] = { pieces: entry.pieces, cities };
    merged.push(file);
    newIds.push(entry.state);
  }
  const gone = allStates.filter(
    (state) => !index[state] && (existsSync(stateFile(state)) || existsSync(idsFile(state))),
  );
  const idIndex = adIdIndexFile(compiledDir);
  return {
    index,
    written: merged.length,
    commit() {
      // The id index first, beside the one in place: made while the old files are all still there.
      const staleIds = newIds.length > 0 || gone.length > 0 || !existsSync(idIndex);
      if (staleIds)
        writeAdIdIndex(
          `${idIndex}.next`,
          Object.keys(index).map((state) => ({
            state,
            idsFile: newIds.includes(state) ? `${idsFile(state)}.next` : idsFile(state),
          })),
        );
      for (const file of merged) renameSync(`${file}.next`, file);
      for (const state of newIds) renameSync(`${idsFile(state)}.next`, idsFile(state));
      // Right after the state files (a few renames apart), so a reader that finds a line where
      // the id index said, sees the index that goes with it; one that does not (between two
      // renames) looks again (core/content/ad-by-id.ts).
      if (staleIds) renameSync(`${idIndex}.next`, idIndex);
      for (const state of gone) {
        rmSync(stateFile(state), { force: true });
        rmSync(idsFile(state), { force: true });
      }
      // Whole or not at all: the running server may read it while a publish runs.
      replaceFile(adsIndexFile(compiledDir), JSON.stringify(index));
    },
    discard() {
      for (const file of merged) rmSync(`${file}.next`, { force: true });
      for (const state of newIds) rmSync(`${idsFile(state)}.next`, { force: true });
    },
  };
}
