// `npm run compile:content`, and the build's first step: validates content/ (as check-content does)
// and writes the compiled content the site reads (see pipeline/compile/compile-to-disk.ts); `--full`
// starts afresh. CONTENT_DIR and COMPILED_CONTENT_DIR choose other folders; `--date` (or
// BUILD_DATE) the day whose live ads are published. The server's database, whose live member ads
// are published beside the CSV ads: DATABASE_URL (PostgreSQL), else DATABASE_PATH (SQLite; default
// data/localboard.sqlite; none if the file is absent), opened read-only and read in one snapshot
// first (pipeline/compile/database-ad-source.ts). In the build it runs bundled
// (pipeline/build-steps.ts), where it checks big sets of ads files on two threads
// (pipeline/compile/check-ads-in-parallel.ts). With BUILD_OUT_DIR (the build sets it), the member
// ads' photos are written into that output's site, from the photo storage (PHOTOS_DIR's folder,
// else the database: pipeline/compile/published-photos.ts).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { storeLocationFromEnv } from '../store/store-location.ts';
import { buildDateFrom } from '../pipeline/build-date.ts';
import { compileToDisk, type CompileOutcome } from '../pipeline/compile/compile-to-disk.ts';
import {
  MEMBER_ADS_FOLDER,
  readMemberAdsAt,
  type PhotosOfTheBuild,
} from '../pipeline/compile/database-ad-source.ts';
import { photoPublishingIn } from '../pipeline/compile/published-photos.ts';
import { SITE_FOLDER } from '../pipeline/prerender/output-layout.ts';
import { formatProblem, unreadableFileProblem } from '../pipeline/compile/report.ts';
import { continueBuild } from '../pipeline/hand-over.ts';
import { stepTimer } from '../pipeline/step-timings.ts';

const started = performance.now();
const timer = stepTimer('Compiling content');
const root = join(import.meta.dirname, '..');
const contentDir = process.env.CONTENT_DIR ?? join(root, 'content');
const compiledDir = process.env.COMPILED_CONTENT_DIR ?? join(root, '.content');
const full = process.argv.includes('--full');
const memberAdsDir = join(compiledDir, MEMBER_ADS_FOLDER);
if (full) rmSync(memberAdsDir, { recursive: true, force: true });
const outDir = process.env.BUILD_OUT_DIR;
const photos: PhotosOfTheBuild | undefined = outDir
  ? {
      ...photoPublishingIn(outDir, SITE_FOLDER),
      async openStorage(store) {
        const { openPhotoStorage, photoStorageLocationFromEnv } =
          await import('../store/photo-storage/photo-storage.ts');
        return openPhotoStorage(store, photoStorageLocationFromEnv(process.env));
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
console.log(
  `Compiled content for ${content.buildDate}: ${content.activeAds} live ads (${stateFilesWritten} state ad files rewritten, ` +
    `${searchIndex.citiesChanged} cities re-indexed for search in ${(searchIndex.milliseconds / 1000).toFixed(2)} s) ` +
    `in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
);
console.log(timer.line());
// In the build, this process becomes the pages step (pipeline/hand-over.ts).
continueBuild();
