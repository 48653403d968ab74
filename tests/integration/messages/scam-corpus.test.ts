// The scam shield judged by the people it protects (issue 29, "Done when"): the project's own corpus
// of first messages (tests/fixtures/scam-corpus: 30 of the scam patterns members of personals sites
// report, 30 ordinary replies, several using the same words innocently) goes through the real
// reply form, as a browser posts it without JavaScript, each from a new verified account to a live
// ad in Los Angeles. A message counts as caught when the form refuses it, or when the poster opening
// the conversation reads the scam warning beside it. At least 27 of 30 scam messages must be
// caught, and at most 1 of 30 ordinary replies.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { messagesWorld } from '../../helpers/messages-world.ts';
import { conversationIdOf, textOf } from '../../helpers/messages.ts';
import { type TestMember } from '../../helpers/posting.ts';

const t = messagesWorld();

const corpus = (name: string) =>
  readFileSync(new URL(`../../fixtures/scam-corpus/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));

type Outcome = 'refused' | 'warned' | 'delivered';

let poster: TestMember;
let adId: number;
beforeAll(async () => {
  poster = await t.makeMember();
  adId = await t.insertLiveAd(poster, 'Coffee, tacos and a walk in Griffith Park');
});

/** What happens to `text` as a first message from a new member, as both sides see it. */
async function outcomeOf(text: string): Promise<Outcome> {
  const sender = await t.makeMember();
  const response = await t.startConversation(sender, adId, text);
  if (response.status === 400) return 'refused';
  expect(response.status).toBe(303);
  const page = await t.getPage(`/messages/${conversationIdOf(response)}`, poster.session);
  expect(page.status).toBe(200);
  return textOf(await page.text()).includes('Warning: this message may be a scam')
    ? 'warned'
    : 'delivered';
}

async function outcomesOf(messages: readonly string[]) {
  const outcomes: Array<[Outcome, string]> = [];
  for (const text of messages) outcomes.push([await outcomeOf(text), text]);
  return outcomes;
}

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
