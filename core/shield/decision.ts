// What the scam shield does with a first message (docs/product.md section 7): one decision from the
// learned model's probability (model.ts), the editors' signals (core/policy/scam-signals.ts) and the
// sender's behaviour. It fails safe: refusing an ordinary member silences them, so a refusal needs
// a hard signal the model does not contradict, or the model's high confidence; the middle warns
// the recipient in words; the rest is delivered plainly.
//
// - A `refuse` signal (a handle, a spelled-out number, "add me on …", a request for a code or a
//   card) refuses when the model gives at least THRESHOLDS.hardSignalRefuses; a weaker model
//   warns instead, and a model sure it is ordinary (below THRESHOLDS.signalDoubted) lets it
//   through plainly: the member declining an app names it too ("I'm not on Telegram").
// - A `warn` signal warns when the model gives at least THRESHOLDS.softSignalCounts.
// - The model: at least THRESHOLDS.refuse after the sender's behaviour (and refuseUnadjusted
//   before it) refuses where a signal that counts agrees; at least THRESHOLDS.warn warns (not
//   for a poster answering a reply: the model learned from first messages to posters).
// - The sender's behaviour moves the model's log-odds by at most MOST_SHIFT: a new account,
//   many first messages in the last hour, the same text to others, an earlier refusal or
//   warning, a photo also on another member's ad; being verified moves it back. It cannot refuse
//   on its own.
// Pure and browser-safe.
import type { ScamFamily, ScamHit } from '../policy/scam-signals.ts';
import type { ShieldJudgement } from './model.ts';

export const THRESHOLDS = {
  /** The model's probability (after behaviour) from which the recipient is warned. */
  warn: 0.9,
  /** …from which the message is refused, … */
  refuse: 0.97,
  /** …provided the text alone gives at least this. */
  refuseUnadjusted: 0.9,
  /** A hard signal refuses from this probability (below, it warns). */
  hardSignalRefuses: 0.5,
  /** Below this, the model contradicts a hard signal: it does not count. */
  signalDoubted: 0.15,
  /** A warning signal counts from this probability. */
  softSignalCounts: 0.4,
} as const;

/** How far the sender's behaviour may move the model's log-odds, up. */
export const MOST_SHIFT = 1.5;

/** What the shield knows of the sender when they write a first message. */
export interface SenderBehaviour {
  /** Hours since the account was made. */
  accountAgeHours: number;
  verified: boolean;
  /** Conversations they started in the last hour, before this one. */
  firstMessagesLastHour: number;
  /** Other members who got this same text (its print) from them in the last day. */
  sameTextRecipients: number;
  /** Their messages refused or warned about before. */
  earlierFlags: number;
  /** Their photos that matched another member's when uploaded (photos.duplicate_of). */
  duplicatePhotos: number;
}

/** The behaviour of a sender the shield knows nothing against: the default of the bench. */
export const UNREMARKABLE: SenderBehaviour = {
  accountAgeHours: 24 * 365,
  verified: false,
  firstMessagesLastHour: 0,
  sameTextRecipients: 0,
  earlierFlags: 0,
  duplicatePhotos: 0,
};

/** The log-odds the behaviour adds, and why, in words a moderator reads. */
export function behaviourShift(behaviour: SenderBehaviour): { shift: number; reasons: string[] } {
  const parts: Array<[number, string]> = [];
  if (behaviour.accountAgeHours < 24) parts.push([0.2, 'account under a day old']);
  else if (behaviour.accountAgeHours < 24 * 7) parts.push([0.1, 'account under a week old']);
  if (behaviour.verified) parts.push([-0.3, 'verified']);
  if (behaviour.firstMessagesLastHour >= 6)
    parts.push([0.8, `${behaviour.firstMessagesLastHour} first messages in the last hour`]);
  else if (behaviour.firstMessagesLastHour >= 3)
    parts.push([0.4, `${behaviour.firstMessagesLastHour} first messages in the last hour`]);
  if (behaviour.sameTextRecipients >= 1)
    parts.push([
      behaviour.sameTextRecipients >= 2 ? 1 : 0.6,
      `the same text to ${behaviour.sameTextRecipients} other ${behaviour.sameTextRecipients === 1 ? 'member' : 'members'} today`,
    ]);
  if (behaviour.earlierFlags >= 1)
    parts.push([
      behaviour.earlierFlags >= 3 ? 0.7 : 0.3,
      `${behaviour.earlierFlags} earlier ${behaviour.earlierFlags === 1 ? 'message' : 'messages'} refused or warned`,
    ]);
  if (behaviour.duplicatePhotos >= 1) parts.push([0.7, "a photo also on another member's ad"]);
  const total = parts.reduce((sum, [shift]) => sum + shift, 0);
  return { shift: Math.min(total, MOST_SHIFT), reasons: parts.map(([, reason]) => reason) };
}

export type ShieldOutcome = 'refused' | 'warned' | 'delivered';

/** The shield's decision on a first message, with what it rests on. */
export interface ShieldDecision {
  outcome: ShieldOutcome;
  /** The families the recipient is warned about (or the one refused), first the main one. */
  families: ScamFamily[];
  /** A refusal's part of the text: the signal's words, or the sentence the model weighed most. */
  part?: { start: number; end: number };
  /** What decided it, for the moderators' list: 'signal' or 'model'. */
  by?: 'signal' | 'model';
  /** The model's probability, and after the sender's behaviour. */
  probability: number;
  adjusted: number;
  /** The behaviour that moved it. */
  behaviour: string[];
}

const logit = (p: number) => Math.log(Math.max(p, 1e-9) / Math.max(1 - p, 1e-9));

/** The families of `hits`, once each, first found first. */
const familiesOf = (hits: readonly ScamHit[]) => [...new Set(hits.map((hit) => hit.family))];

/**
 * The decision on a first message the recipient has not answered: `judgement` is the model's on
 * the whole text; `part` finds the sentence the model weighs most, for a refusal by the model.
 */
export function decideFirstMessage(
  judgement: ShieldJudgement,
  hits: readonly ScamHit[],
  behaviour: SenderBehaviour,
  part: () => { start: number; end: number },
  { fromPoster = false }: { fromPoster?: boolean } = {},
): ShieldDecision {
  const { probability } = judgement;
  const { shift, reasons } = behaviourShift(behaviour);
  const adjusted = 1 / (1 + Math.exp(-(logit(probability) + shift)));
  const base = { probability, adjusted, behaviour: reasons };
  const counted = hits.filter(
    (hit) =>
      probability >=
      (hit.action === 'refuse' ? THRESHOLDS.signalDoubted : THRESHOLDS.softSignalCounts),
  );
  const hard = counted.find((hit) => hit.action === 'refuse');
  if (hard && probability >= THRESHOLDS.hardSignalRefuses)
    return {
      ...base,
      outcome: 'refused',
      by: 'signal',
      families: [hard.family],
      part: { start: hard.start, end: hard.end },
    };
  // The model refuses only where a signal agrees: alone, a very high score is still sometimes an
  // odd ordinary message (in the k-fold, "minigolf" scored 0.99); it is warned then.
  if (
    counted.length > 0 &&
    adjusted >= THRESHOLDS.refuse &&
    probability >= THRESHOLDS.refuseUnadjusted
  )
    return {
      ...base,
      outcome: 'refused',
      by: 'model',
      families: [familiesOf(counted)[0]!],
      part: part(),
    };
  if (counted.length > 0)
    return { ...base, outcome: 'warned', by: 'signal', families: familiesOf(counted) };
  // A poster answering a reply to their ad is not what the model learned from (first messages to
  // a poster: "Thanks for writing! Tell me about yourself" reads like an opener): the signals
  // alone, or with the model, warn them.
  if (adjusted >= THRESHOLDS.warn && !fromPoster)
    return { ...base, outcome: 'warned', by: 'model', families: [judgement.family] };
  return { ...base, outcome: 'delivered', families: [] };
}

/** The sentences of a text, as offsets: what a refusal by the model may quote. */
export function sentencesOf(text: string): Array<{ start: number; end: number }> {
  const sentences: Array<{ start: number; end: number }> = [];
  for (const match of text.matchAll(/[^.!?\n]+[.!?]*/g)) {
    const start = match.index + (match[0].length - match[0].trimStart().length);
    const end = match.index + match[0].trimEnd().length;
    if (end > start) sentences.push({ start, end });
  }
  return sentences.length > 0 ? sentences : [{ start: 0, end: text.length }];
}
