// Validates content/ and writes the compiled content the site reads into the compiled-content
// folder (.content/ by default): content.json, and the ads of each state with their index
// (state-ad-files.ts). Never edit those by hand; they are rebuilt from content/. Incremental: an
// ads CSV that has not changed is not parsed again, and a state's ads file is rewritten only when
// what it is made of changes (`full` starts afresh). Nothing is written unless all content is valid.
import { hash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompiledContent } from '../../schemas/compiled-content.ts';
import { US_STATE_NAMES } from '../../schemas/us-states.ts';
import { adFileCache } from './ad-file-cache.ts';
import { compileContent } from './compile.ts';
import { compileMemo } from './compile-memo.ts';
import type { ContentProblem } from './report.ts';
import { writeStateAdFiles } from './state-ad-files.ts';

export interface CompileRequest {
  contentDir: string;
  compiledDir: string;
  buildDate: string;
  /** Forget everything compiled before. */
  full?: boolean;
}

export type CompileOutcome =
  | { ok: true; content: CompiledContent; stateFilesWritten: number }
  | { ok: false; problems: ContentProblem[] };

export function compileToDisk({
  contentDir,
  compiledDir,
  buildDate,
  full,
}: CompileRequest): CompileOutcome {
  if (full) rmSync(compiledDir, { recursive: true, force: true });
  const cache = adFileCache(compiledDir);
  const memo = compileMemo(join(compiledDir, 'memo.json'));
  const { content, problems } = compileContent(contentDir, buildDate, undefined, {
    adFiles: cache,
    memo,
  });
  if (!content) return { ok: false, problems };
  memo.save();
  const states = US_STATE_NAMES.flatMap((state) => {
    const keys = cache.files
      .filter((entry) => entry.states.includes(state))
      .map((entry) => entry.key);
    if (keys.length === 0) return [];
    return [
      {
        state,
        pieceFiles: keys.map((key) => cache.piecePath(key, state)),
        pieces: hash('sha1', keys.join(','), 'hex'),
      },
    ];
  });
  const stateFilesWritten = writeStateAdFiles(compiledDir, states, US_STATE_NAMES);
  writeFileSync(join(compiledDir, 'content.json'), JSON.stringify(content));
  cache.prune();
  return { ok: true, content, stateFilesWritten };
}
