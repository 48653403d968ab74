// Trains the scam shield's model from a labelled corpus (docs/product.md section 7; the model is
// read by core/shield/model.ts). Deterministic: the same corpus gives the same file, byte for byte
// (`npm run train:shield -- --check` proves it in CI).
//
// 1. Features (core/shield/features.ts) seen in at least MIN_TEXTS texts of the corpus make the
//    vocabulary; rarer ones would only remember single texts.
// 2. Calibration: the corpus is split in FOLDS by a digest of each text (not by its order); a model
//    trained on the other folds scores each fold, and Platt scaling fits those scores: so the
//    probability is what the model says of texts it has not seen.
// 3. The scam model on the whole corpus, the classes weighed alike; the family model on its scams.
// Weights are rounded to 6 significant digits and the near-zero ones left out of the file.
import { createHash } from 'node:crypto';
import type { CorpusScamFamily } from '../../core/schemas/shield-corpus.ts';
import type { ScamFamily } from '../../core/policy/scam-signals.ts';
import { shieldFeatures } from '../../core/shield/features.ts';
import type { ShieldModelFile } from '../../core/shield/model.ts';
import { fitLogistic, fitPlatt, fitSoftmax, type SparseRow } from './learn.ts';

/** A line of a corpus as the trainer reads it. */
export interface TrainingText {
  label: 'scam' | 'ordinary';
  family: string;
  text: string;
}

/** The shield family a corpus scam family is warned about as. */
export const SHIELD_FAMILY_OF: Readonly<Record<CorpusScamFamily, ScamFamily>> = {
  'off-site': 'off-site-contact',
  'verification-lure': 'codes',
  'code-theft': 'codes',
  'gift-cards-payment-apps': 'money',
  'sugar-fee': 'money',
  crypto: 'crypto',
  'advance-fee': 'scam-story',
  'military-abroad': 'scam-story',
  'sob-story': 'scam-story',
  'content-sales': 'content-sales',
};

export const FOLDS = 5;
const MIN_TEXTS = 2;
/**
 * The L2 penalties: the scam model's chosen among 1e-3 … 3e-6 by the corpus's k-fold figures and
 * the old fixtures' (tests/fixtures/scam-corpus); weaker ones overfit no less, stronger ones rank worse.
 */
const SCAM_PENALTY = 1e-5;
const FAMILY_PENALTY = 1e-3;
const FAMILY_PREFIXES = ['w:', 'b:', 's:'];

/** The fold a text falls in: a digest of it, so adding a line moves no other. */
export const foldOf = (text: string) =>
  createHash('sha256').update(text).digest().readUInt32BE(0) % FOLDS;

interface Vocabulary {
  keys: string[];
  index: Map<string, number>;
}

function vocabularyOf(vectors: ReadonlyArray<Map<string, number>>, keep = (_: string) => true) {
  const counts = new Map<string, number>();
  for (const vector of vectors)
    for (const key of vector.keys()) if (keep(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  const keys = [...counts]
    .filter(([, count]) => count >= MIN_TEXTS)
    .map(([key]) => key)
    .sort();
  return { keys, index: new Map(keys.map((key, at) => [key, at])) } satisfies Vocabulary;
}

function sparse(vector: Map<string, number>, vocabulary: Vocabulary): SparseRow {
  const pairs = [...vector]
    .map(([key, value]) => [vocabulary.index.get(key), value] as const)
    .filter((pair): pair is readonly [number, number] => pair[0] !== undefined)
    .sort((a, b) => a[0] - b[0]);
  return {
    indexes: Int32Array.from(pairs, ([at]) => at),
    values: Float64Array.from(pairs, ([, value]) => value),
  };
}

/** A number as the file keeps it: 6 significant digits. */
const rounded = (value: number) => Number(value.toPrecision(6));

interface ScamModel {
  vocabulary: Vocabulary;
  point: Float64Array;
}

function fitScamModel(texts: readonly TrainingText[], vectors: Map<string, number>[]): ScamModel {
  const vocabulary = vocabularyOf(vectors);
  const rows = vectors.map((vector) => sparse(vector, vocabulary));
  const labels = texts.map(({ label }) => (label === 'scam' ? 1 : 0));
  return { vocabulary, point: fitLogistic(rows, labels, vocabulary.keys.length, SCAM_PENALTY) };
}

const scoreWith = ({ vocabulary, point }: ScamModel, vector: Map<string, number>) => {
  let score = point[vocabulary.keys.length]!;
  for (const [key, value] of vector) {
    const at = vocabulary.index.get(key);
    if (at !== undefined) score += point[at]! * value;
  }
  return score;
};

/**
 * The scores each text gets from a model trained without its fold: what calibration fits, and
 * what the benchmark's k-fold figures count.
 */
export function outOfFoldScores(texts: readonly TrainingText[]): number[] {
  const vectors = texts.map(({ text }) => shieldFeatures(text));
  const folds = texts.map(({ text }) => foldOf(text));
  const scores = new Array<number>(texts.length).fill(0);
  for (let fold = 0; fold < FOLDS; fold += 1) {
    const inside = texts.flatMap((_, at) => (folds[at] === fold ? [] : [at]));
    const model = fitScamModel(
      inside.map((at) => texts[at]!),
      inside.map((at) => vectors[at]!),
    );
    texts.forEach((_, at) => {
      if (folds[at] === fold) scores[at] = scoreWith(model, vectors[at]!);
    });
  }
  return scores;
}

/** The model a corpus gives: `kind` says what it judges, `about` how it was made. */
export function trainShieldModel(
  texts: readonly TrainingText[],
  kind: ShieldModelFile['kind'],
  about: string,
): ShieldModelFile {
  const labels = texts.map(({ label }) => (label === 'scam' ? 1 : 0));
  const calibration = fitPlatt(outOfFoldScores(texts), labels);
  const vectors = texts.map(({ text }) => shieldFeatures(text));
  const { vocabulary, point } = fitScamModel(texts, vectors);
  const weights: Record<string, number> = {};
  vocabulary.keys.forEach((key, at) => {
    const weight = rounded(point[at]!);
    if (Math.abs(weight) >= 1e-3) weights[key] = weight;
  });

  const scams = texts.flatMap((text, at) => (text.label === 'scam' ? [{ text, at }] : []));
  const names = [
    ...new Set(scams.map(({ text }) => SHIELD_FAMILY_OF[text.family as CorpusScamFamily])),
  ].sort() as ScamFamily[];
  const familyVocabulary = vocabularyOf(
    scams.map(({ at }) => vectors[at]!),
    (key) => FAMILY_PREFIXES.some((prefix) => key.startsWith(prefix)),
  );
  const familyPoint = fitSoftmax(
    scams.map(({ at }) => sparse(vectors[at]!, familyVocabulary)),
    scams.map(({ text }) => names.indexOf(SHIELD_FAMILY_OF[text.family as CorpusScamFamily])),
    familyVocabulary.keys.length,
    names.length,
    FAMILY_PENALTY,
  );
  const familyWeights: Record<string, number[]> = {};
  familyVocabulary.keys.forEach((key, at) => {
    const row = names.map((_, c) => rounded(familyPoint[at * names.length + c]!));
    if (row.some((weight) => Math.abs(weight) >= 1e-3)) familyWeights[key] = row;
  });
  const digest = createHash('sha256');
  for (const { label, family, text } of texts) digest.update(`${label}\t${family}\t${text}\n`);
  return {
    kind,
    about,
    trainedOn: {
      scam: labels.filter((label) => label === 1).length,
      ordinary: labels.filter((label) => label === 0).length,
      sha256: digest.digest('hex'),
    },
    bias: rounded(point[vocabulary.keys.length]!),
    weights,
    calibration: { scale: rounded(calibration.scale), shift: rounded(calibration.shift) },
    families: {
      names,
      bias: names.map((_, c) =>
        rounded(familyPoint[familyVocabulary.keys.length * names.length + c]!),
      ),
      weights: familyWeights,
    },
  };
}

/** The model's file: one feature a line, so that a change to the corpus reads as a diff. */
export function modelFileText(model: ShieldModelFile): string {
  const lines = (record: Record<string, unknown>) =>
    Object.keys(record)
      .sort()
      .map((key) => `    ${JSON.stringify(key)}: ${JSON.stringify(record[key])}`)
      .join(',\n');
  return (
    [
      '{',
      `  "kind": ${JSON.stringify(model.kind)},`,
      `  "about": ${JSON.stringify(model.about)},`,
      `  "trainedOn": ${JSON.stringify(model.trainedOn)},`,
      `  "bias": ${JSON.stringify(model.bias)},`,
      `  "calibration": ${JSON.stringify(model.calibration)},`,
      `  "families": {`,
      `  "names": ${JSON.stringify(model.families.names)},`,
      `  "bias": ${JSON.stringify(model.families.bias)},`,
      `  "weights": {\n${lines(model.families.weights)}\n  }`,
      `  },`,
      `  "weights": {\n${lines(model.weights)}\n  }`,
      '}',
    ].join('\n') + '\n'
  );
}
