// Validates content/ (as check-content does) and writes the compiled content the site reads:
// .content/content.json and .content/ads/{State Name}.ndjson. Never edit those by hand; they are
// rebuilt from content/. Incremental: an ads CSV that has not changed is not parsed again, and a
// state file is rewritten only when the pieces it is made of change (`--full` starts afresh).
// Nothing is written unless all content is valid. .content/shards.json records each state file's
// pieces, which is how the prerenderer tells which states changed.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { US_STATE_NAMES } from '../src/schemas/us-states.ts';
import { adFileCache } from './lib/ad-file-cache.ts';
import { buildDateFrom } from './lib/build-date.ts';
import { compileContent } from './lib/compile.ts';
import { formatProblem } from './lib/report.ts';

const root = join(import.meta.dirname, '..');
const contentDir = process.env.CONTENT_DIR ?? join(root, 'content');
const outDir = process.env.COMPILED_CONTENT_DIR ?? join(root, '.content');
const shardsFile = join(outDir, 'shards.json');

if (process.argv.includes('--full')) rmSync(outDir, { recursive: true, force: true });
const cache = adFileCache(join(outDir, 'pieces'));
const { content, problems } = compileContent(contentDir, buildDateFrom(process.argv, process.env), undefined, cache);
if (!content) {
  for (const problem of problems) console.error(formatProblem(problem));
  console.error(`\n${problems.length} content ${problems.length === 1 ? 'problem' : 'problems'}; nothing was built.`);
  process.exit(1);
}

// Each state's file is its pieces, in the order of the ads files; rewritten only when they change.
const previous = existsSync(shardsFile) ? (JSON.parse(readFileSync(shardsFile, 'utf8')) as Record<string, string>) : {};
const shards: Record<string, string> = {};
let rewritten = 0;
mkdirSync(join(outDir, 'ads'), { recursive: true });
for (const state of US_STATE_NAMES) {
  const keys = cache.files.filter((entry) => entry.states.includes(state)).map((entry) => entry.key);
  const shardPath = join(outDir, 'ads', `${state}.ndjson`);
  if (keys.length === 0) {
    rmSync(shardPath, { force: true });
    continue;
  }
  shards[state] = createHash('sha1').update(keys.join(',')).digest('hex');
  if (shards[state] === previous[state] && existsSync(shardPath)) continue;
  writeFileSync(shardPath, keys.map((key) => readFileSync(cache.piecePath(key, state), 'utf8')).join(''));
  rewritten += 1;
}
writeFileSync(join(outDir, 'content.json'), JSON.stringify(content));
writeFileSync(shardsFile, JSON.stringify(shards));
cache.prune();
console.log(`Compiled content for ${content.buildDate}: ${content.activeAds} live ads (${rewritten} state ad files rewritten).`);
