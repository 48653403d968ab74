// The content and page steps of `npm run build`, in one process: compile the content, then
// prerender the pages. scripts/build.mjs bundles this file (with esbuild, into .build/), and the
// build runs it once the client assets are built.
//   --date D --content DIR --cache DIR --dist DIR --out DIR [--full]; LOCALBOARD_SOURCES: source fingerprint
import { join } from 'node:path';
import { prerender } from '../src/prerender/prerender.ts';
import { compileToDisk } from './lib/compile-to-disk.ts';
import { formatProblem } from './lib/report.ts';

const option = (flag: string) => {
  const index = process.argv.indexOf(flag);
  const value = index === -1 ? undefined : process.argv[index + 1];
  if (!value) throw new Error(`build-steps needs ${flag}`);
  return value;
};
const full = process.argv.includes('--full');
const started = performance.now();
const compiledContentDir = option('--cache');
const outDir = option('--out');

// Content
const compiled = compileToDisk({ contentDir: option('--content'), compiledDir: compiledContentDir, buildDate: option('--date'), full });
if (!compiled.ok) {
  for (const problem of compiled.problems) console.error(formatProblem(problem));
  console.error(`\n${compiled.problems.length} content ${compiled.problems.length === 1 ? 'problem' : 'problems'}; nothing was built.`);
  process.exit(1);
}
console.log(
  `Compiled content for ${compiled.content.buildDate}: ${compiled.content.activeAds} live ads ` +
    `(${compiled.stateFilesWritten} state ad files rewritten) in ${seconds(started)} s.`,
);

// Pages
const prerenderStarted = performance.now();
const summary = await prerender({
  distDir: option('--dist'),
  outDir: join(outDir, 'client'),
  manifestFile: join(outDir, 'build-manifest.json'),
  compiledContentDir,
  content: compiled.content,
  sources: process.env.LOCALBOARD_SOURCES ?? '',
  full,
});
const took = (performance.now() - prerenderStarted) / 1000;
console.log(
  `Prerendered ${summary.pages} pages in ${took.toFixed(1)} s (${Math.round(summary.pages / took)} pages/s, ${summary.threads} ` +
    `${summary.threads === 1 ? 'thread' : 'threads'}): ${summary.written} written, ${summary.pages - summary.written} unchanged, ` +
    `${summary.removed} removed; looked at ` +
    (Object.entries(summary.pagesByKind).map(([kind, count]) => `${kind} ${count}`).join(', ') || 'nothing'),
);

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}
