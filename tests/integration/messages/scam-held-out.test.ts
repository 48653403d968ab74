// The scam shield measured on a held-out set (docs/product.md section 7): first messages written
// fresh, in wordings the signals list was not written from, and never used to tune it
// (tests/fixtures/scam-corpus/held-out-*.txt). Each goes through the real reply form as a browser
// posts it without JavaScript, from a new verified account to a live ad in Los Angeles; a message
// counts as caught when the form refuses it or the poster reads the scam warning beside it.
// Before the rules were tuned: 14 of 36 scams caught (12 refused, 2 warned: 39 %), 3 of 36
// ordinary messages refused (8 %, all declining an app), none warned. After tuning on
// tuning-*.txt: 36 of 36 caught (29 refused, 7 warned); after the lures' everyday lookalikes were
// made warnings (tuning-ordinary-lookalike-messages.txt): 36 of 36 (21 refused, 15 warned). No
// ordinary message refused or warned either time. The floor kept: at most 1 scam delivered
// plainly, no ordinary message refused or warned.
import { describe, expect, test } from 'vitest';
import {
  firstMessageOutcomes,
  messagesWorld,
  scamCorpus,
  type FirstMessageOutcome,
} from '../../helpers/messages-world.ts';

const t = messagesWorld();

const heldOut = (name: string) => scamCorpus(`held-out-${name}.txt`);
const outcomesIn = firstMessageOutcomes(t);

/** The outcomes of the messages, counted and listed by outcome. */
async function outcomesOf(messages: readonly string[]) {
  const outcomes = await outcomesIn(messages);
  const count = (outcome: FirstMessageOutcome) =>
    outcomes.filter(([found]) => found === outcome).length;
  const list = (outcome: FirstMessageOutcome) =>
    outcomes.filter(([found]) => found === outcome).map(([, text]) => `${outcome}: ${text}`);
  return { count, list, total: outcomes.length };
}

describe('the held-out first messages, through the reply form', () => {
  test('at least 35 of 36 scam messages are refused or warned', async () => {
    const scams = await outcomesOf(heldOut('scam-messages'));
    console.info(
      `held-out scams: ${scams.count('refused')} refused, ${scams.count('warned')} warned, ` +
        `${scams.count('delivered')} delivered of ${scams.total}`,
    );
    expect(scams.total).toBe(36);
    expect(scams.count('delivered'), scams.list('delivered').join('\n')).toBeLessThanOrEqual(1);
  }, 120_000);

  test('no ordinary message is refused or warned', async () => {
    const ordinary = await outcomesOf(heldOut('ordinary-messages'));
    console.info(
      `held-out ordinary: ${ordinary.count('refused')} refused, ${ordinary.count('warned')} ` +
        `warned, ${ordinary.count('delivered')} delivered of ${ordinary.total}`,
    );
    expect(ordinary.total).toBe(36);
    expect(ordinary.count('refused'), ordinary.list('refused').join('\n')).toBe(0);
    expect(ordinary.count('warned'), ordinary.list('warned').join('\n')).toBe(0);
  }, 120_000);
});
