// Reads the scam shield's labelled corpora (content/shield/, core/schemas/shield-corpus.ts): each
// line checked, every problem named by file, line and field, as the content checker prints them.
// The training files are the ones the model learns from; the held-out files are never trained on
// (the trainer does not read them) and measure it (bench/shield.ts, the tests).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import {
  CORPUS_AD_COLUMNS,
  CORPUS_MESSAGE_COLUMNS,
  corpusAdSchema,
  corpusMessageSchema,
  type CorpusAd,
  type CorpusLine,
  type CorpusMessage,
} from '../../core/schemas/shield-corpus.ts';
import { readCsv } from '../compile/read-csv.ts';
import { problemsFromZod, type ContentProblem } from '../compile/report.ts';

/** The corpus files, relative to the content folder. */
export const SHIELD_CORPUS_FILES = {
  messages: 'shield/first-messages.csv',
  heldOutMessages: 'shield/held-out-first-messages.csv',
  ads: 'shield/ads.csv',
  heldOutAds: 'shield/held-out-ads.csv',
} as const;

export type ShieldCorpusFile = keyof typeof SHIELD_CORPUS_FILES;

/** The model files `npm run train:shield` writes, relative to the content folder. */
export const SHIELD_MODEL_FILES = {
  messages: 'shield/message-model.json',
  ads: 'shield/ad-model.json',
} as const;

function readCorpus<Row>(
  contentDir: string,
  name: ShieldCorpusFile,
  columns: readonly string[],
  schema: z.ZodType<Row>,
): { rows: CorpusLine<Row>[]; problems: ContentProblem[] } {
  const file = `content/${SHIELD_CORPUS_FILES[name]}`;
  const path = join(contentDir, SHIELD_CORPUS_FILES[name]);
  if (!existsSync(path))
    return { rows: [], problems: [{ file, line: 1, field: 'file', message: 'is missing' }] };
  const csv = readCsv(readFileSync(path, 'utf8'), file, { required: columns });
  const rows: CorpusLine<Row>[] = [];
  const problems = [...csv.problems];
  const seen = new Map<string, number>();
  for (const { line, cells } of csv.rows) {
    const parsed = schema.safeParse(cells);
    if (!parsed.success) {
      problems.push(...problemsFromZod(parsed.error, file, () => line));
      continue;
    }
    // The same text twice would count twice in training and in every figure.
    const text = columns.filter((column) => !['label', 'family', 'source'].includes(column));
    const key = text.map((column) => cells[column]!.trim().toLowerCase()).join('\n');
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push({
        file,
        line,
        field: text[0]!,
        message: `is the same as line ${first}: keep one of them`,
      });
      continue;
    }
    seen.set(key, line);
    rows.push({ ...parsed.data, line });
  }
  return { rows, problems };
}

/** A corpus of first messages: the training file or the held-out one. */
export const readMessageCorpus = (
  contentDir: string,
  name: 'messages' | 'heldOutMessages' = 'messages',
) =>
  readCorpus<CorpusMessage>(
    contentDir,
    name,
    CORPUS_MESSAGE_COLUMNS,
    corpusMessageSchema as z.ZodType<CorpusMessage>,
  );

/** A corpus of ads: the training file or the held-out one. */
export const readAdCorpus = (contentDir: string, name: 'ads' | 'heldOutAds' = 'ads') =>
  readCorpus<CorpusAd>(contentDir, name, CORPUS_AD_COLUMNS, corpusAdSchema as z.ZodType<CorpusAd>);

/**
 * Every problem of every corpus file, for the content checker; a content folder without shield/
 * (a test's) has none to check (`npm run check:shield` fails on the project's without it).
 */
export function shieldCorpusProblems(contentDir: string): ContentProblem[] {
  if (!existsSync(join(contentDir, 'shield'))) return [];
  return [
    ...readMessageCorpus(contentDir, 'messages').problems,
    ...readMessageCorpus(contentDir, 'heldOutMessages').problems,
    ...readAdCorpus(contentDir, 'ads').problems,
    ...readAdCorpus(contentDir, 'heldOutAds').problems,
  ];
}
