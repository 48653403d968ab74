// Pins how the ads check shares files between threads: each taken once, marked done or failed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  checkAdsInParallel,
  takeFiles,
} from '../../../../src/build/compile/check-ads-in-parallel.ts';
import type { AdFileToCheck } from '../../../../src/build/compile/check-ads-in-parallel.ts';
import type { AdFileContext } from '../../../../src/build/compile/check-ad-file.ts';

const WAITING = 0;
const DONE = 2;
const FAILED = 3;

const filesNamed = (...names: string[]): AdFileToCheck[] =>
  names.map((name) => ({ file: `content/ads/${name}`, path: `/nowhere/${name}` }));

/** The shared state for `count` files: [next index, then one state a file], all zero. */
const sharedState = (count: number) => new Int32Array(new SharedArrayBuffer(4 * (1 + count)));

describe('takeFiles', () => {
  test('checks every file once, in order, and marks each done', () => {
    const files = filesNamed('a.csv', 'b.csv', 'c.csv');
    const state = sharedState(files.length);
    const checked: string[] = [];
    takeFiles(files, state, (entry) => checked.push(entry.file));
    expect(checked).toEqual(['content/ads/a.csv', 'content/ads/b.csv', 'content/ads/c.csv']);
    expect([...state.slice(1)]).toEqual([DONE, DONE, DONE]);
    expect(state[0]).toBeGreaterThanOrEqual(files.length);
  });

  test('marks a file whose check throws as failed, rethrows, and takes no file after it', () => {
    const files = filesNamed('a.csv', 'b.csv', 'c.csv', 'd.csv');
    const state = sharedState(files.length);
    const checked: string[] = [];
    expect(() =>
      takeFiles(files, state, (entry) => {
        checked.push(entry.file);
        if (entry.file === 'content/ads/b.csv') throw new Error('cannot read b.csv');
      }),
    ).toThrow('cannot read b.csv');
    expect(checked).toEqual(['content/ads/a.csv', 'content/ads/b.csv']);
    expect([...state.slice(1)]).toEqual([DONE, FAILED, WAITING, WAITING]);
    // The other thread takes up from the next file.
    expect(state[0]).toBe(2);
  });

  test('checks only the files left when another thread has taken some already', () => {
    const files = filesNamed('a.csv', 'b.csv', 'c.csv', 'd.csv');
    const state = sharedState(files.length);
    Atomics.store(state, 0, 2);
    const checked: string[] = [];
    takeFiles(files, state, (entry) => checked.push(entry.file));
    expect(checked).toEqual(['content/ads/c.csv', 'content/ads/d.csv']);
    expect([...state.slice(1)]).toEqual([WAITING, WAITING, DONE, DONE]);
  });

  test('checks nothing when every file is taken', () => {
    const files = filesNamed('a.csv', 'b.csv');
    const state = sharedState(files.length);
    Atomics.store(state, 0, 2);
    const checked: string[] = [];
    takeFiles(files, state, (entry) => checked.push(entry.file));
    expect(checked).toEqual([]);
  });
});

describe('checkAdsInParallel', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'localboard-ads-parallel-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const context: AdFileContext = {
    buildDate: '2026-11-22',
    citiesByState: new Map(),
    blockedTerms: [],
  };
  const AD_HEADER =
    'id,state,city,age,seeks,title,description,images,featured,postedAt,expiresAt,sample\n';

  function smallFiles(): AdFileToCheck[] {
    return ['a.csv', 'b.csv'].map((name) => {
      const path = join(dir, name);
      const row =
        '1001,Vermont,Burlington,30,w4m,Coffee,A walk.,,false,2026-11-01,2026-12-01,true\n';
      writeFileSync(path, `${AD_HEADER}${row}`);
      return { file: `content/ads/${name}`, path };
    });
  }

  test('leaves the files to the compiler when there is no bundled worker', () => {
    const summarised: string[] = [];
    checkAdsInParallel(
      dir,
      smallFiles(),
      context,
      (entry) => summarised.push(entry.file),
      undefined,
    );
    expect(summarised).toEqual([]);
  });

  test('leaves the files to the compiler when they total under 4 MB', () => {
    const summarised: string[] = [];
    // The worker file does not exist: it must not even be started.
    const workerUrl = new URL(`file://${join(dir, 'no-such-worker.mjs')}`);
    checkAdsInParallel(
      dir,
      smallFiles(),
      context,
      (entry) => summarised.push(entry.file),
      workerUrl,
    );
    expect(summarised).toEqual([]);
  });
});
