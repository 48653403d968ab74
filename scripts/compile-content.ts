// Validates content/ (as check-content does) and writes the compiled content the site reads:
// .content/content.json and .content/ads/{State Name}.ndjson. Never edit those by hand; they are
// rebuilt from content/. The new files replace the old ones only when everything is valid.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDateFrom } from './lib/build-date.ts';
import { compileContent } from './lib/compile.ts';
import { formatProblem } from './lib/report.ts';
import { stateAdsWriter } from './lib/state-ads-writer.ts';

const root = join(import.meta.dirname, '..');
const contentDir = process.env.CONTENT_DIR ?? join(root, 'content');
const outDir = process.env.COMPILED_CONTENT_DIR ?? join(root, '.content');
const nextDir = `${outDir}.next`;

rmSync(nextDir, { recursive: true, force: true });
mkdirSync(nextDir, { recursive: true });
const writer = stateAdsWriter(join(nextDir, 'ads'));
const { content, problems } = compileContent(contentDir, buildDateFrom(process.argv, process.env), writer);
if (!content) {
  rmSync(nextDir, { recursive: true, force: true });
  for (const problem of problems) console.error(formatProblem(problem));
  console.error(`\n${problems.length} content ${problems.length === 1 ? 'problem' : 'problems'}; nothing was built.`);
  process.exit(1);
}
writer.finish();
writeFileSync(join(nextDir, 'content.json'), JSON.stringify(content));
if (existsSync(outDir)) rmSync(outDir, { recursive: true, force: true });
renameSync(nextDir, outDir);
console.log(`Compiled content for ${content.buildDate}: ${content.activeAds} live ads.`);
