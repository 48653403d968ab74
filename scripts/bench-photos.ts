// `npm run bench:photos`: processing a 12-MP photo, and uploads under load (bench/photos.ts); see
// docs/benchmarks.md, ## Photos.
import { benchPhotos } from '../bench/photos.ts';

await benchPhotos(process.argv.slice(2));
