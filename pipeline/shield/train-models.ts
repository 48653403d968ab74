// `npm run train:shield`: the scam shield's two models from the corpora in content/shield/
// (pipeline/shield/corpus.ts): the first-message model and the ad model, each written to its file
// (SHIELD_MODEL_FILES); with `check`, nothing is written and the files on disk are compared with
// what the corpora give (CI runs this: the shipped models are the corpora's, byte for byte).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adShieldText } from '../../core/shield/model.ts';
import { formatProblem, sortProblems } from '../compile/report.ts';
import { readAdCorpus, readMessageCorpus, SHIELD_MODEL_FILES } from './corpus.ts';
import { modelFileText, trainShieldModel } from './train.ts';

export interface TrainOutcome {
  /** Problems of the corpora, as the content checker prints them (nothing is trained then). */
  problems: string[];
  /** Per model: its file, and whether it was written, unchanged, or (with check) out of date. */
  models: Array<{ file: string; state: 'written' | 'unchanged' | 'out of date'; weights: number }>;
}

export function trainShieldModels(contentDir: string, { check }: { check: boolean }): TrainOutcome {
  const messages = readMessageCorpus(contentDir, 'messages');
  const ads = readAdCorpus(contentDir, 'ads');
  const problems = sortProblems([...messages.problems, ...ads.problems]).map(formatProblem);
  if (problems.length > 0) return { problems, models: [] };
  const trained = [
    trainShieldModel(
      messages.rows,
      'messages',
      'The scam shield’s model of first messages: written by `npm run train:shield` from content/shield/first-messages.csv. Do not edit.',
    ),
    trainShieldModel(
      ads.rows.map((ad) => ({ ...ad, text: adShieldText(ad) })),
      'ads',
      'The scam shield’s model of ads: written by `npm run train:shield` from content/shield/ads.csv. Do not edit.',
    ),
  ];
  const models = trained.map((model) => {
    const file = SHIELD_MODEL_FILES[model.kind];
    const path = join(contentDir, file);
    const text = modelFileText(model);
    const weights = Object.keys(model.weights).length;
    const same = existsSync(path) && readFileSync(path, 'utf8') === text;
    if (same) return { file, state: 'unchanged' as const, weights };
    if (check) return { file, state: 'out of date' as const, weights };
    writeFileSync(path, text);
    return { file, state: 'written' as const, weights };
  });
  return { problems, models };
}
