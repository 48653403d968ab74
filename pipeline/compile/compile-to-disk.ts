// Validates content/ and writes the compiled content the site reads into the compiled-content
// folder (.content/ by default): content.json (with the transparency report's counts of the
// database read before), and the ads of each state with their index (state-ad-files.ts). Never
// edit those by hand; they are rebuilt from content/. Incremental: an ads file that has not
// changed is not read again, in one that has only the batches of rows that changed are checked
// again (ad-batch-cache.ts), and a state's ads file is rewritten only when what it is made of
// changes (`full` starts afresh). Nothing is written unless all content is valid.
// Then the search index (search.sqlite) is brought up to date with the ads written; one to build
// from nothing may be left to the pages step instead (`newSearchIndexLater`).
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompiledContent } from '../../core/schemas/compiled-content.ts';
import { adBatchCache } from './ad-batch-cache.ts';
import { compileContent } from './compile.ts';
import { compileMemo } from './compile-memo.ts';
import { csvScanCache } from './csv-ad-source.ts';
import { databaseAdSource, MEMBER_ADS_FOLDER, type MemberAds } from './database-ad-source.ts';
import { writeSearchIndex, type SearchIndexUpdate } from '../../search/write-search-index.ts';
import { isSearchIndexOfThisVersion, searchIndexFile } from '../../search/search-index-file.ts';
import type { ContentProblem } from './report.ts';

export interface CompileRequest {
  contentDir: string;
  compiledDir: string;
  buildDate: string;
  /** Forget everything compiled before (the member ads read for this compile stay). */
  full?: boolean;
  /** The server's live member ads, published too (readMemberAds(), database-ad-source.ts). */
  memberAds?: MemberAds;
  /** Told as each part ends: the step's timings (step-timings.ts). */
  mark?: (part: string) => void;
  /**
   * A search index to build from nothing (none yet, another version, or `full`) is not built here:
   * the build's pages step builds it on a thread of its own beside its rendering
   * (pipeline/prerender/new-search-index.ts). An index that exists is brought up to date here.
   */
  newSearchIndexLater?: boolean;
}

export type CompileOutcome =
  | {
      ok: true;
      content: CompiledContent;
      stateFilesWritten: number;
      warnings: string[];
      /** What the search index's update did (search/); none when left to the pages step. */
      searchIndex?: SearchIndexUpdate;
    }
  | { ok: false; problems: ContentProblem[]; warnings: string[] };

export function compileToDisk({
  contentDir,
  compiledDir,
  buildDate,
  full,
  memberAds,
  mark = () => {},
  newSearchIndexLater = false,
}: CompileRequest): CompileOutcome {
  if (full && existsSync(compiledDir))
    for (const name of readdirSync(compiledDir))
      if (name !== MEMBER_ADS_FOLDER)
        rmSync(join(compiledDir, name), { recursive: true, force: true });
  const batches = adBatchCache(compiledDir);
  const scans = csvScanCache(join(compiledDir, 'ads-files.json'));
  const memo = compileMemo(join(compiledDir, 'memo.json'));
  const {
    content: compiled,
    problems,
    warnings = [],
  } = compileContent(contentDir, buildDate, undefined, {
    adBatches: batches,
    adScans: scans,
    memo,
    adSources: memberAds ? [databaseAdSource(memberAds)] : [],
    hiddenAdIds: memberAds?.hiddenEditorAdIds ?? [],
  });
  scans.save();
  mark('content checked');
  const stateFiles = batches.stateFiles();
  // The moderation counts of the database's snapshot, beside the ads (/transparency).
  const content = compiled && { ...compiled, transparency: memberAds?.transparency };
  if (!content) {
    stateFiles?.discard();
    return { ok: false, problems, warnings };
  }
  memo.save();
  // compileContent() asked the batch cache for the counts per city, so it merged the state files.
  assert(stateFiles, 'the state ad files were merged while compiling');
  stateFiles.commit();
  // Replaced whole, never seen half-written: the running server may read it while a publish runs.
  writeFileSync(join(compiledDir, 'content.json.next'), JSON.stringify(content));
  renameSync(join(compiledDir, 'content.json.next'), join(compiledDir, 'content.json'));
  batches.prune();
  mark('compiled content written');
  // The search index follows the ads just written: an ad that left the site leaves it now.
  // (`full` removed the index above: one left for later is one from nothing.)
  if (newSearchIndexLater && !isSearchIndexOfThisVersion(searchIndexFile(compiledDir)))
    return { ok: true, content, stateFilesWritten: stateFiles.written, warnings };
  const searchIndex = writeSearchIndex(compiledDir, buildDate, {
    full,
    adsIndex: stateFiles.index,
    states: content.states,
  });
  mark('search index');
  return { ok: true, content, stateFilesWritten: stateFiles.written, warnings, searchIndex };
}
