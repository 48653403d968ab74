// Validates content/ (as check-content does) and writes the compiled content the site reads:
// .content/content.json. Never edit that file by hand; it is rebuilt from content/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDateFrom } from './lib/build-date.ts';
import { compileContent } from './lib/compile.ts';
import { formatProblem } from './lib/report.ts';

const root = join(import.meta.dirname, '..');
const contentDir = process.env.CONTENT_DIR ?? join(root, 'content');
const outDir = process.env.COMPILED_CONTENT_DIR ?? join(root, '.content');
const { content, problems } = compileContent(contentDir, buildDateFrom(process.argv, process.env));
if (!content) {
  for (const problem of problems) console.error(formatProblem(problem));
  console.error(`\n${problems.length} content ${problems.length === 1 ? 'problem' : 'problems'}; nothing was built.`);
  process.exit(1);
}
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'content.json'), JSON.stringify(content));
console.log(`Compiled content for ${content.buildDate}: ${content.ads.length} live ads.`);
