// `npm run bench:soak`: the real server soaked on Node 24 while V8 collects by itself (bench/soak.ts); see docs/benchmarks.md.
import { benchSoak } from '../bench/soak.ts';

await benchSoak(process.argv.slice(2));
