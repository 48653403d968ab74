// The scam shield's whole judgement of a first message, without a store (docs/product.md section
// 7): the model's probability, the signals found and the decision (decision.ts), given what is
// known of the sender. The server (server/messages/scam-shield.ts), the benchmark and the tests
// all judge through this one function. Pure and browser-safe.
import { findScamSignals, type ScamSignals } from '../policy/scam-signals.ts';
import {
  decideFirstMessage,
  sentencesOf,
  type SenderBehaviour,
  type ShieldDecision,
} from './decision.ts';
import { judgeText, type ShieldModelFile } from './model.ts';

export interface FirstMessageContext {
  /** The ad's city and state: never a signal. */
  places: readonly string[];
  behaviour: SenderBehaviour;
  /** The ad's poster answering a reply (decision.ts). */
  fromPoster?: boolean;
}

/** The decision on a first message the recipient has not answered. */
export function judgeFirstMessage(
  model: ShieldModelFile,
  signals: ScamSignals,
  text: string,
  { places, behaviour, fromPoster = false }: FirstMessageContext,
): ShieldDecision {
  return decideFirstMessage(
    judgeText(model, text),
    findScamSignals(text, signals, places),
    behaviour,
    () => weightiestSentence(model, text),
    { fromPoster },
  );
}

/** The sentence of `text` the model finds most like a scam: what a refusal by the model quotes. */
export function weightiestSentence(model: ShieldModelFile, text: string) {
  const sentences = sentencesOf(text);
  let best = sentences[0]!;
  let bestProbability = -1;
  for (const sentence of sentences) {
    const { probability } = judgeText(model, text.slice(sentence.start, sentence.end));
    if (probability > bestProbability) [best, bestProbability] = [sentence, probability];
  }
  return best;
}
