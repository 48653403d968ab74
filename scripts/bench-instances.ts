// `npm run bench:instances`: two instances on one PostgreSQL, approve on one → live on the other, on
// the 117,000-page site (bench/instances.ts); see docs/benchmarks.md.
import { benchInstances } from '../bench/instances.ts';

await benchInstances(process.argv.slice(2));
