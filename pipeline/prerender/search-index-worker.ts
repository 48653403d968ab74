// The thread that builds a new search index in the pages step (bundled as the build step
// `search-index-worker`, started by new-search-index.ts): builds it, hands back what it did, and
// says it is done on the shared flag, which the main thread reads between two pages' tasks.
import { parentPort, workerData } from 'node:worker_threads';
import { buildNewSearchIndex, type SearchIndexThreadInput } from './new-search-index.ts';

const input = workerData as SearchIndexThreadInput;
try {
  parentPort!.postMessage(buildNewSearchIndex(input.compiledContentDir));
} finally {
  Atomics.store(new Int32Array(input.done), 0, 1);
}
