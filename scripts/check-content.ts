// `npm run check:content`: validates every content file; prints `file:line: field: reason` for
// each problem and exits 1 when there is any.
import { join } from 'node:path';
import { buildDateFrom } from '../pipeline/build-date.ts';
import { compileContent, type CompileResult } from '../pipeline/compile/compile.ts';
import { formatProblem, sortProblems, unreadableFileProblem } from '../pipeline/compile/report.ts';
import { shieldCorpusProblems } from '../pipeline/shield/corpus.ts';

const contentDir = process.env.CONTENT_DIR ?? join(import.meta.dirname, '..', 'content');
let result: CompileResult;
try {
  result = compileContent(contentDir, buildDateFrom(process.argv, process.env));
} catch (error) {
  const problem = unreadableFileProblem(error, join(contentDir, '..'));
  if (!problem) throw error;
  result = { problems: [problem], unpublishedAds: 0 };
}
const { content, unpublishedAds } = result;
// The scam shield's corpora (content/shield/) are checked here too: the build does not read them.
const problems = sortProblems([...result.problems, ...shieldCorpusProblems(contentDir)]);
if (!content || problems.length > 0) {
  for (const problem of problems) console.error(formatProblem(problem));
  console.error(
    `\n${problems.length} content ${problems.length === 1 ? 'problem' : 'problems'} found.`,
  );
  process.exit(1);
}
for (const warning of result.warnings ?? []) console.warn(`Warning: ${warning}`);
const cities = content.states.reduce((sum, state) => sum + state.cities.length, 0);
console.log(
  `Content OK: ${content.states.length} states, ${cities} cities, ${content.activeAds} live ads ` +
    `(${unpublishedAds} not live on ${content.buildDate}), ${content.guides.length} guides.`,
);
