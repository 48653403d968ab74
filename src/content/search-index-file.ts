// The search index the build writes beside the compiled content ({compiled content dir}/search.sqlite)
// and the server reads for /search (product.md section 9): one SQLite file, written only by
// src/build/search/write-search-index.ts (table definitions there). Its ads are exactly the published ads of the compiled
// content (CompiledAd, stored whole as JSON), so the index never holds a second copy of the schema.
import { join } from 'node:path';

export const searchIndexFile = (compiledDir: string) => join(compiledDir, 'search.sqlite');

/** Bumped when the tables change: an index of another version is rebuilt from scratch. */
export const SEARCH_INDEX_VERSION = 2;
