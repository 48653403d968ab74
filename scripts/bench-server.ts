// `npm run bench:server`: the server under load (bench/server.ts); see docs/benchmarks.md.
import { benchServer } from '../bench/server.ts';

await benchServer(process.argv.slice(2));
