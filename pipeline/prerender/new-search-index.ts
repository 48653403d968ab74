// The search index built from nothing in the pages step. Built in the content step, it took a
// minute of one thread at a million ads while the machine's second core sat idle (docs/
// benchmarks.md, issue 52); so a build leaves it to the pages step (NEW_SEARCH_INDEX_VARIABLE, set
// by pipeline/build-plan.ts for both steps), which builds it on a thread of its own
// (search-index-worker.ts) while the main thread renders; the render worker starts once that
// thread is done (prerender.ts), so the two cores stay busy and the step's memory holds the index
// thread or the render worker, never both. Nothing the pages render reads the index. An index that
// exists is brought up to date by the content step as before (a publish's few ads).
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { compiledContentFile } from '../../core/content/index.ts';
import type { CompiledContent } from '../../core/schemas/compiled-content.ts';
import { writeSearchIndex, type SearchIndexUpdate } from '../../search/write-search-index.ts';
import { readAdsIndex } from '../compile/state-ad-files.ts';
import { buildStepUrl } from '../build-steps.ts';

/** '1': the content step leaves an index to build from nothing to the pages step, which builds it. */
export const NEW_SEARCH_INDEX_VARIABLE = 'LOCALBOARD_NEW_SEARCH_INDEX_IN_PAGES_STEP';

/** Whether this process's step leaves a new search index to, or builds it in, the pages step. */
export const newSearchIndexInPagesStep = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env[NEW_SEARCH_INDEX_VARIABLE] === '1';

/** Builds the index of the compiled content in `compiledDir` from nothing. */
export function buildNewSearchIndex(compiledDir: string): SearchIndexUpdate {
  const { buildDate, states, activeAds } = JSON.parse(
    readFileSync(compiledContentFile(compiledDir), 'utf8'),
  ) as CompiledContent;
  return writeSearchIndex(compiledDir, buildDate, {
    full: true,
    adsIndex: activeAds > 0 ? readAdsIndex(compiledDir) : {},
    states,
  });
}

export interface SearchIndexThreadInput {
  compiledContentDir: string;
  /** One Int32: 1 once the thread is done (built, or failed). */
  done: SharedArrayBuffer;
}

/**
 * Its few MB of live data (the ads index, the states) and SQLite's own memory, outside the heap:
 * a small heap, collected early.
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 6 };

/** The index thread of the pages step, building the index of `compiledDir` from nothing. */
export function startSearchIndexThread(compiledDir: string): {
  /** Whether the thread is done; read without the event loop (the main thread renders meanwhile). */
  isDone(): boolean;
  /** What it built; rejected with its error when it failed. */
  update: Promise<SearchIndexUpdate>;
} {
  const input: SearchIndexThreadInput = {
    compiledContentDir: compiledDir,
    done: new SharedArrayBuffer(4),
  };
  const done = new Int32Array(input.done);
  const worker = new Worker(buildStepUrl('search-index-worker'), {
    workerData: input,
    resourceLimits: THREAD_LIMITS,
  });
  const update = new Promise<SearchIndexUpdate>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`The search index's thread stopped (exit code ${code}) before it finished`)),
    );
  });
  return { isDone: () => Atomics.load(done, 0) === 1, update };
}
