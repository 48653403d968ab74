// `npm run bench`: the build benchmark (bench/main.ts); see docs/benchmarks.md for its options.
import '../bench/main.ts';
