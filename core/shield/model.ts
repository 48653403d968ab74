// The scam shield's learned model (docs/product.md section 7): how a trained model judges a text.
// `npm run train:shield` (pipeline/shield/train.ts) writes it from the labelled corpus in
// content/shield/; this module reads it. Two linear models over the features of features.ts:
// - whether a text is a scam: a logistic regression whose score is calibrated (Platt scaling on
//   out-of-fold scores), so `probability` reads as "of texts scored like this in the corpus, this
//   share were scams";
// - which family a scam is: a softmax regression over the shield's families, on the words alone.
// Pure and browser-safe.
import { SCAM_FAMILIES, type ScamFamily } from '../policy/scam-signals.ts';
import { shieldFeatures, type FeatureVector } from './features.ts';

/** The model as its file holds it (content/shield/*-model.json). */
export interface ShieldModelFile {
  /** What it judges: first messages, or ads (title and description). */
  kind: 'messages' | 'ads';
  /** How it was made, for the reader of the file. */
  about: string;
  /** The corpus it was trained on: its lines and a digest of them. */
  trainedOn: { scam: number; ordinary: number; sha256: string };
  /** The scam score: bias, then a weight for each feature. */
  bias: number;
  weights: Record<string, number>;
  /** probability = 1 / (1 + exp(-(scale × score + shift))). */
  calibration: { scale: number; shift: number };
  /** The family scores: one bias and, for each feature, one weight per family in `names` order. */
  families: { names: ScamFamily[]; bias: number[]; weights: Record<string, number[]> };
}

/** What the model says of a text. */
export interface ShieldJudgement {
  /** How likely the text is a scam, 0 to 1 (calibrated). */
  probability: number;
  /** The family it most looks like, were it a scam. */
  family: ScamFamily;
  /** The features that weighed most towards a scam, heaviest first (at most 5), for moderators. */
  leaning: string[];
}

interface LoadedModel {
  file: ShieldModelFile;
  weights: Map<string, number>;
  familyWeights: Map<string, number[]>;
}

const loaded = new WeakMap<ShieldModelFile, LoadedModel>();

function load(file: ShieldModelFile): LoadedModel {
  let model = loaded.get(file);
  if (!model) {
    for (const name of file.families.names)
      if (!(SCAM_FAMILIES as readonly string[]).includes(name))
        throw new Error(`The shield model names an unknown family '${name}'.`);
    model = {
      file,
      weights: new Map(Object.entries(file.weights)),
      familyWeights: new Map(Object.entries(file.families.weights)),
    };
    loaded.set(file, model);
  }
  return model;
}

/** The text of an ad the ad model reads: its title, then its description. */
export const adShieldText = (ad: { title: string; description: string }) =>
  `${ad.title}\n${ad.description}`;

export const sigmoid = (score: number) => 1 / (1 + Math.exp(-score));

/** The uncalibrated scam score of a feature vector. */
export function rawScore(model: ShieldModelFile, vector: FeatureVector): number {
  const { weights } = load(model);
  let score = model.bias;
  for (const [key, value] of vector) score += (weights.get(key) ?? 0) * value;
  return score;
}

/** The calibrated probability of an uncalibrated score. */
export const calibrated = (model: ShieldModelFile, score: number) =>
  sigmoid(model.calibration.scale * score + model.calibration.shift);

/** Judges `text`: how likely a scam, of which family, and the features that leaned that way. */
export function judgeText(model: ShieldModelFile, text: string): ShieldJudgement {
  const { weights, familyWeights } = load(model);
  const vector = shieldFeatures(text);
  const names = model.families.names;
  const familyScores = [...model.families.bias];
  let score = model.bias;
  const leaning: Array<[string, number]> = [];
  for (const [key, value] of vector) {
    const weight = weights.get(key);
    if (weight !== undefined) {
      score += weight * value;
      if (weight > 0) leaning.push([key, weight * value]);
    }
    const perFamily = familyWeights.get(key);
    if (perFamily)
      for (let at = 0; at < names.length; at += 1) familyScores[at]! += perFamily[at]! * value;
  }
  let best = 0;
  for (let at = 1; at < names.length; at += 1)
    if (familyScores[at]! > familyScores[best]!) best = at;
  leaning.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return {
    probability: calibrated(model, score),
    family: names[best] ?? 'scam-story',
    leaning: leaning.slice(0, 5).map(([key]) => key),
  };
}
