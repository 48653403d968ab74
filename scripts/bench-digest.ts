// `npm run bench:digest`: the saved-search digest of 100,000 saved searches over 1,000,000 ads, and the running server's pages meanwhile (bench/digest.ts); see docs/benchmarks.md.
import { benchDigest } from '../bench/digest.ts';

await benchDigest(process.argv.slice(2));
