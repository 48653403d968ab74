// `npm run bench:search`: the search index and /search at 1,000,000 ads (bench/search.ts); see docs/benchmarks.md.
import { benchSearch } from '../bench/search.ts';

await benchSearch(process.argv.slice(2));
