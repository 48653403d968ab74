// npm run train:shield [-- --check]: trains the scam shield's models from content/shield/ and
// writes them there (pipeline/shield/train-models.ts); --check only compares, and fails when a
// shipped model is not what its corpus gives.
import { join } from 'node:path';
import { trainShieldModels } from '../pipeline/shield/train-models.ts';

const check = process.argv.includes('--check');
const contentDir = process.env.CONTENT_DIR ?? join(import.meta.dirname, '..', 'content');
const { problems, models } = trainShieldModels(contentDir, { check });
for (const problem of problems) console.error(problem);
for (const { file, state, weights } of models)
  console.log(`content/${file}: ${state} (${weights} weights)`);
const stale = models.filter(({ state }) => state === 'out of date');
if (stale.length > 0)
  console.error('The shipped model is not what the corpus gives: run `npm run train:shield`.');
process.exit(problems.length > 0 || stale.length > 0 ? 1 : 0);
