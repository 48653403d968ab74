// The scam shield judged by the people it protects (issue 29, "Done when"): the project's own corpus
// of first messages (tests/fixtures/scam-corpus: 30 of the scam patterns members of personals sites
// report, 30 ordinary replies, several using the same words innocently) goes through the real
// reply form, as a browser posts it without JavaScript, each from a new verified account to a live
// ad in Los Angeles. A message counts as caught when the form refuses it, or when the poster opening
// the conversation reads the scam warning beside it. At least 27 of 30 scam messages must be
// caught, and at most 1 of 30 ordinary replies.
import { describe, expect, test } from 'vitest';
import { firstMessageOutcomes, messagesWorld, scamCorpus } from '../../helpers/messages-world.ts';

const t = messagesWorld();

const corpus = scamCorpus;
const outcomesOf = firstMessageOutcomes(t);

describe('the project’s corpus of first messages, through the reply form', () => {
  test('at least 27 of 30 scam messages are refused or warned', async () => {
    const messages = corpus('scam-first-messages.txt');
    expect(messages).toHaveLength(30);
    const outcomes = await outcomesOf(messages);
    const missed = outcomes.filter(([outcome]) => outcome === 'delivered').map(([, text]) => text);
    expect(missed.length, `delivered plainly:\n${missed.join('\n')}`).toBeLessThanOrEqual(3);
    // Most are refused outright: the recipient never reads them.
    expect(outcomes.filter(([outcome]) => outcome === 'refused').length).toBeGreaterThan(20);
  }, 120_000);

  test('at most 1 of 30 ordinary replies is refused or warned', async () => {
    const messages = corpus('ordinary-first-messages.txt');
    expect(messages).toHaveLength(30);
    const outcomes = await outcomesOf(messages);
    const caught = outcomes
      .filter(([outcome]) => outcome !== 'delivered')
      .map(([outcome, text]) => `${outcome}: ${text}`);
    expect(caught.length, `caught:\n${caught.join('\n')}`).toBeLessThanOrEqual(1);
  }, 120_000);
});
