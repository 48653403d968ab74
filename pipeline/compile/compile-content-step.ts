// The build's first step, as a function (scripts/compile-content.ts runs it as a script, and the
// warm publisher, pipeline/publish-worker.ts, once a publish): validates content/ and writes the
// compiled content the site reads (compile-to-disk.ts). It reads its settings from the process's
// arguments and environment when called, as a step's own Node would see them (scripts/
// compile-content.ts says which); a content problem ends the process with exit code 1.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { storeLocationFromEnv } from '../../store/store-location.ts';
import { buildDateFrom } from '../build-date.ts';
import { compileToDisk, type CompileOutcome } from './compile-to-disk.ts';
import { MEMBER_ADS_FOLDER, readMemberAdsAt, type PhotosOfTheBuild } from './database-ad-source.ts';
import { photoPublishingIn } from './published-photos.ts';
import { SITE_FOLDER } from '../prerender/output-layout.ts';
import { formatProblem, unreadableFileProblem } from './report.ts';
import { stepTimer } from '../step-timings.ts';
import { newSearchIndexInPagesStep } from '../prerender/new-search-index.ts';

/** Compiles the content; `root` is the project folder (the default content/ and database). */
export async function compileContentStep(root: string): Promise<void> {
  const started = performance.now();
  const timer = stepTimer('Compiling content');
  const contentDir = process.env.CONTENT_DIR ?? join(root, 'content');
  const compiledDir = process.env.COMPILED_CONTENT_DIR ?? join(root, '.content');
  const full = process.argv.includes('--full');
  const memberAdsDir = join(compiledDir, MEMBER_ADS_FOLDER);
  if (full) rmSync(memberAdsDir, { recursive: true, force: true });
  const outDir = process.env.BUILD_OUT_DIR;
  const photos: PhotosOfTheBuild | undefined = outDir
    ? {
        ...photoPublishingIn(outDir, SITE_FOLDER),
        async openStorage(reader) {
          const { openPhotoReading, photoStorageLocationFromEnv } =
            await import('../../store/photo-storage/photo-storage.ts');
          return openPhotoReading(reader.photoBlobs, photoStorageLocationFromEnv(process.env));
        },
      }
    : undefined;
  const memberAds = await readMemberAdsAt(
    storeLocationFromEnv(process.env, join(root, 'data', 'localboard.sqlite')),
    memberAdsDir,
    photos,
  );
  timer.mark('member ads');
  for (const warning of memberAds.warnings ?? []) console.warn(`Warning: ${warning}`);
  let outcome: CompileOutcome;
  try {
    outcome = compileToDisk({
      contentDir,
      compiledDir,
      buildDate: buildDateFrom(process.argv, process.env),
      full,
      memberAds,
      mark: timer.mark,
      newSearchIndexLater: newSearchIndexInPagesStep(),
    });
  } catch (error) {
    const problem = unreadableFileProblem(error, join(contentDir, '..'));
    if (!problem) throw error;
    outcome = { ok: false, problems: [problem], warnings: [] };
  }
  // A member ad's problem leaves that ad out; it never stops the build.
  for (const warning of outcome.warnings) console.warn(`Warning: ${warning}`);
  if (!outcome.ok) {
    for (const problem of outcome.problems) console.error(formatProblem(problem));
    console.error(
      `\n${outcome.problems.length} content ${outcome.problems.length === 1 ? 'problem' : 'problems'}; nothing was built.`,
    );
    process.exit(1);
  }
  const { content, stateFilesWritten, searchIndex } = outcome;
  const indexed = searchIndex
    ? `${searchIndex.citiesChanged} cities re-indexed for search in ${(searchIndex.milliseconds / 1000).toFixed(2)} s`
    : 'the search index left to the pages step, which builds it from nothing';
  console.log(
    `Compiled content for ${content.buildDate}: ${content.activeAds} live ads (${stateFilesWritten} state ad files rewritten, ` +
      `${indexed}) in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
  console.log(timer.line());
}
