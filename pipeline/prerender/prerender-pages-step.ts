// The build's last step, as a function (scripts/prerender-pages.ts runs it as a script, and the
// warm publisher, pipeline/publish-worker.ts, once a publish): prerenders every page of the
// compiled content into {out}/site (prerender.ts). It reads its options from the process's
// arguments when called, as a step's own Node would see them:
//   --cache DIR --vite DIR --out DIR [--full]; LOCALBOARD_SOURCES: stamp of the source code;
//   LOCALBOARD_NEW_SEARCH_INDEX_IN_PAGES_STEP=1: builds the search index when the compiled content
//   has none (new-search-index.ts)
// When the build handed itself over to this step (LOCALBOARD_BUILD_FINISH, pipeline/build.ts), it
// finishes the build too (pipeline/finish-build.ts). A failure ends the process with exit code 1.
import { join } from 'node:path';
import { prerender } from './prerender.ts';
import { newSearchIndexInPagesStep } from './new-search-index.ts';
import { isSearchIndexOfThisVersion, searchIndexFile } from '../../search/search-index-file.ts';
import { MANIFEST_FILE, SITE_FOLDER } from './output-layout.ts';
import { finishBuild, handedFinish } from '../finish-build.ts';
import { stepTimer } from '../step-timings.ts';

export async function prerenderPagesStep(): Promise<void> {
  const option = (flag: string) => {
    const index = process.argv.indexOf(flag);
    const value = index === -1 ? undefined : process.argv[index + 1];
    if (!value) throw new Error(`prerender-pages needs ${flag}`);
    return value;
  };
  const outDir = option('--out');
  const started = performance.now();
  const timer = stepTimer('Prerendering pages');
  const compiledContentDir = option('--cache');
  const summary = await prerender({
    viteDir: option('--vite'),
    outDir: join(outDir, SITE_FOLDER),
    manifestFile: join(outDir, MANIFEST_FILE),
    compiledContentDir,
    newSearchIndex:
      newSearchIndexInPagesStep() &&
      !isSearchIndexOfThisVersion(searchIndexFile(compiledContentDir)),
    sources: process.env.LOCALBOARD_SOURCES ?? '',
    full: process.argv.includes('--full'),
    mark: timer.mark,
  }).catch((error: unknown) => {
    // What failed says so itself (the pages that failed, and a stack only for a bug of ours).
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
  const took = (performance.now() - started) / 1000;
  console.log(
    `Prerendered ${summary.pages} pages in ${took.toFixed(1)} s (${Math.round(summary.pages / took)} pages/s, ${summary.threads} ` +
      `${summary.threads === 1 ? 'thread' : 'threads'}): ${summary.written} written, ${summary.pages - summary.written} unchanged, ` +
      `${summary.removed} removed; feeds: ${summary.filesWritten} written of ${summary.files} looked at; looked at ` +
      (Object.entries(summary.pagesByKind)
        .map(([kind, count]) => `${kind} ${count}`)
        .join(', ') || 'nothing'),
  );
  if (summary.searchIndex)
    console.log(
      `Built the search index from nothing beside the pages: ${summary.searchIndex.adsWritten} ads in ` +
        `${(summary.searchIndex.milliseconds / 1000).toFixed(1)} s.`,
    );
  const finish = handedFinish(process.env);
  if (finish) {
    await finishBuild(finish);
    timer.mark('build finished');
  }
  console.log(timer.line());
}
