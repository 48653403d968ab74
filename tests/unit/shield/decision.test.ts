// The scam shield's decision (core/shield/decision.ts): it fails safe. A hard signal refuses only
// when the model does not read the message as ordinary; the model alone refuses only when it is
// very sure; the sender's behaviour moves the model by at most a bounded step and never refuses on
// its own.
import { describe, expect, it } from 'vitest';
import type { ScamHit } from '../../../core/policy/scam-signals.ts';
import {
  behaviourShift,
  decideFirstMessage,
  MOST_SHIFT,
  sentencesOf,
  THRESHOLDS,
  UNREMARKABLE,
  type SenderBehaviour,
} from '../../../core/shield/decision.ts';

const hard: ScamHit = { family: 'off-site-contact', action: 'refuse', start: 0, end: 8 };
const soft: ScamHit = { family: 'money', action: 'warn', start: 3, end: 9 };
const judged = (probability: number) => ({ probability, family: 'crypto' as const, leaning: [] });
const decide = (
  probability: number,
  hits: ScamHit[] = [],
  behaviour: SenderBehaviour = UNREMARKABLE,
) => decideFirstMessage(judged(probability), hits, behaviour, () => ({ start: 0, end: 4 }));

describe('the decision on a first message', () => {
  it('refuses on a hard signal the model does not read as ordinary, quoting the signal', () => {
    expect(decide(THRESHOLDS.hardSignalRefuses, [hard])).toMatchObject({
      outcome: 'refused',
      by: 'signal',
      families: ['off-site-contact'],
      part: { start: 0, end: 8 },
    });
  });

  it('warns on a hard signal the model doubts, and lets it through when the model is sure', () => {
    expect(decide(THRESHOLDS.hardSignalRefuses - 0.01, [hard]).outcome).toBe('warned');
    expect(decide(THRESHOLDS.signalDoubted - 0.01, [hard]).outcome).toBe('delivered');
    expect(decide(THRESHOLDS.softSignalCounts - 0.01, [soft]).outcome).toBe('delivered');
    expect(decide(THRESHOLDS.softSignalCounts, [soft])).toMatchObject({
      outcome: 'warned',
      families: ['money'],
    });
  });

  it('refuses by the model only when it is very sure and a signal agrees', () => {
    expect(decide(0.99, [soft])).toMatchObject({
      outcome: 'refused',
      by: 'model',
      families: ['money'],
      part: { start: 0, end: 4 },
    });
    expect(decide(0.999)).toMatchObject({ outcome: 'warned', by: 'model', families: ['crypto'] });
    expect(decide(0.96, [soft]).outcome).toBe('warned');
    expect(decide(THRESHOLDS.warn + 0.001)).toMatchObject({
      outcome: 'warned',
      by: 'model',
      families: ['crypto'],
    });
    expect(decide(THRESHOLDS.warn - 0.01).outcome).toBe('delivered');
  });

  it("leaves a poster's answer to a reply to the signals: the model alone does not warn it", () => {
    const asPoster = (probability: number, hits: ScamHit[] = []) =>
      decideFirstMessage(judged(probability), hits, UNREMARKABLE, () => ({ start: 0, end: 4 }), {
        fromPoster: true,
      }).outcome;
    expect(asPoster(0.95)).toBe('delivered');
    expect(asPoster(0.95, [soft])).toBe('warned');
    expect(asPoster(0.95, [hard])).toBe('refused');
  });

  it('lets behaviour move a message from delivered to warned, never to refused alone', () => {
    const suspicious: SenderBehaviour = {
      accountAgeHours: 1,
      verified: false,
      firstMessagesLastHour: 8,
      sameTextRecipients: 2,
      earlierFlags: 4,
      duplicatePhotos: 1,
    };
    expect(behaviourShift(suspicious).shift).toBe(MOST_SHIFT);
    expect(behaviourShift(suspicious).reasons).toEqual([
      'account under a day old',
      '8 first messages in the last hour',
      'the same text to 2 other members today',
      '4 earlier messages refused or warned',
      "a photo also on another member's ad",
    ]);
    expect(decide(0.7, [], suspicious).outcome).toBe('warned');
    expect(decide(0.7).outcome).toBe('delivered');
    // However suspicious the sender, the text alone must give REFUSE_UNADJUSTED.
    expect(decide(THRESHOLDS.refuseUnadjusted - 0.01, [soft], suspicious).outcome).toBe('warned');
    expect(decide(THRESHOLDS.refuseUnadjusted, [soft], suspicious).outcome).toBe('refused');
    const verified = { ...UNREMARKABLE, verified: true };
    expect(behaviourShift(verified)).toEqual({ shift: -0.3, reasons: ['verified'] });
  });
});

describe('the sentences a refusal may quote', () => {
  it('splits on sentence ends and lines, without the spaces around', () => {
    const text = 'Hi there! Add me on the app.\nThanks';
    expect(sentencesOf(text).map(({ start, end }) => text.slice(start, end))).toEqual([
      'Hi there!',
      'Add me on the app.',
      'Thanks',
    ]);
  });
});
