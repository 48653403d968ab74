// Pins how the ads check shares batches between threads: each taken once, marked done or failed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  checkAdsInParallel,
  takeJobs,
} from '../../../../pipeline/compile/check-ads-in-parallel.ts';
import type { AdBatchJob } from '../../../../pipeline/compile/check-ads-in-parallel.ts';
import type { AdCheckContext } from '../../../../pipeline/compile/check-ad-row.ts';

const WAITING = 0;
const DONE = 2;
const FAILED = 3;

const filesNamed = (...names: string[]) =>
  names.map((name) => ({ file: `content/ads/${name}`, path: `/nowhere/${name}` }));

/** The shared state for `count` jobs: [next index, then one state a job], all zero. */
const sharedState = (count: number) => new Int32Array(new SharedArrayBuffer(4 * (1 + count)));

describe('takeJobs', () => {
  test('checks every file once, in order, and marks each done', () => {
    const files = filesNamed('a.csv', 'b.csv', 'c.csv');
    const state = sharedState(files.length);
    const checked: string[] = [];
    takeJobs(files, state, (entry) => checked.push(entry.file));
    expect(checked).toEqual(['content/ads/a.csv', 'content/ads/b.csv', 'content/ads/c.csv']);
    expect([...state.slice(1)]).toEqual([DONE, DONE, DONE]);
    expect(state[0]).toBeGreaterThanOrEqual(files.length);
  });

  test('marks a file whose check throws as failed, rethrows, and takes no file after it', () => {
    const files = filesNamed('a.csv', 'b.csv', 'c.csv', 'd.csv');
    const state = sharedState(files.length);
    const checked: string[] = [];
    expect(() =>
      takeJobs(files, state, (entry) => {
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
    takeJobs(files, state, (entry) => checked.push(entry.file));
    expect(checked).toEqual(['content/ads/c.csv', 'content/ads/d.csv']);
    expect([...state.slice(1)]).toEqual([WAITING, WAITING, DONE, DONE]);
  });

  test('checks nothing when every file is taken', () => {
    const files = filesNamed('a.csv', 'b.csv');
    const state = sharedState(files.length);
    Atomics.store(state, 0, 2);
    const checked: string[] = [];
    takeJobs(files, state, (entry) => checked.push(entry.file));
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

  const context: AdCheckContext = {
    buildDate: '2026-11-22',
    citiesByState: new Map(),
    policyTerms: { refuse: [], review: [] },
  };
  const AD_HEADER =
    'id,state,city,age,seeks,title,description,images,featured,postedAt,expiresAt,sample\n';

  function smallJobs(): AdBatchJob[] {
    return ['a.csv', 'b.csv'].map((name) => {
      const path = join(dir, name);
      const row =
        '1001,Vermont,Burlington,30,w4m,Coffee,A walk.,,false,2026-11-01,2026-12-01,true\n';
      writeFileSync(path, `${AD_HEADER}${row}`);
      const segment = {
        file: `content/ads/${name}`,
        path,
        header: AD_HEADER.trimEnd(),
        headerLine: 1,
        offset: AD_HEADER.length,
        bytes: row.length,
        line: 2,
      };
      return { key: name, line: 2, segment };
    });
  }

  test('leaves the batches to the compiler when there is no bundled worker', () => {
    const checked: string[] = [];
    checkAdsInParallel(dir, smallJobs(), context, (job) => checked.push(job.key), undefined);
    expect(checked).toEqual([]);
  });

  test('leaves the batches to the compiler when they total under 4 MB', () => {
    const checked: string[] = [];
    // The worker file does not exist: it must not even be started.
    const workerUrl = new URL(`file://${join(dir, 'no-such-worker.mjs')}`);
    checkAdsInParallel(dir, smallJobs(), context, (job) => checked.push(job.key), workerUrl);
    expect(checked).toEqual([]);
  });
});
