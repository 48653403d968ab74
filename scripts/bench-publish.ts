// `npm run bench:publish`: publishing on the 117,000-page site (bench/publish.ts); see docs/benchmarks.md.
import { benchPublish } from '../bench/publish.ts';

await benchPublish(process.argv.slice(2));
