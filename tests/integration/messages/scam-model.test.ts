// The scam shield's learned model through the real reply form (docs/product.md section 7), on
// either engine, as a new member meets it: the hard cases the signals alone refused are delivered
// plainly (a member declining an app by name, a member's own badge, a code mentioned in passing);
// a scam no signal names reaches its recipient with a warning; a refused message quotes the part
// refused, keeps the text in the form, and stores nothing.
import { describe, expect, test } from 'vitest';
import {
  firstMessageOutcomes,
  messagesWorld,
  type FirstMessageOutcome,
} from '../../helpers/messages-world.ts';
import { textOf } from '../../helpers/html-text.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const t = messagesWorld();
const outcomesIn = firstMessageOutcomes(t);

const expectOutcomes = async (expected: FirstMessageOutcome, messages: readonly string[]) => {
  const outcomes = await outcomesIn(messages);
  expect(outcomes.filter(([outcome]) => outcome !== expected)).toEqual([]);
};

describe('the hard cases, sent by new members through the reply form', () => {
  test('a member declining an app by name is delivered plainly', async () => {
    await expectOutcomes('delivered', [
      "I'm not on Telegram or WhatsApp, so can we keep chatting here for now?",
      'No Snapchat for me, I deleted it years ago. Here is perfect. Do you still climb?',
    ]);
  });

  test("a member's own badge and a code mentioned in passing are delivered plainly", async () => {
    await expectOutcomes('delivered', [
      "My profile has the verified badge, so you know I'm a real person. Coffee this week?",
      'The verification code from this site took ages to arrive, but I made it! Love your ad.',
    ]);
  });
});

describe('a scam', () => {
  test('that no signal names reaches its recipient with a warning, or is refused', async () => {
    const outcomes = await outcomesIn([
      'Hello dear, I am a contractor on an offshore rig and my bank froze my account until I pay the release fee. Could you help me?',
    ]);
    expect(outcomes.map(([outcome]) => outcome)).not.toContain('delivered');
  });

  test('refused, quotes the part refused, keeps the text, and stores nothing', async () => {
    const poster = await t.makeMember();
    const sender = await t.makeMember();
    const adId = await t.insertLiveAd(poster, 'Sunday hikes and a picnic');
    const before = (await t.storedMessages()).length;
    const text = 'Love your ad! I rarely log in here. Add me on telegram, my user is rosie_8899';
    const refused = await t.startConversation(sender, adId, text);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(textOf(html)).toMatch(
      /Your message was not sent\. The part “[^”]*telegram[^”]*” reads as/,
    );
    expect(textOf(html)).toContain('say it in other words');
    expect(html).toContain(`>${text}</textarea>`);
    expect((await t.storedMessages()).length).toBe(before);
    // Kept for the moderators' review (/moderate/shield), with what decided it.
    const decisions = await storedRows<{ outcome: string; decided_by: string; families: string }>(
      t,
      'SELECT outcome, decided_by, families FROM shield_decisions WHERE sender_id = ?',
      sender.accountId,
    );
    expect(decisions).toEqual([
      { outcome: 'refused', decided_by: 'signal', families: 'off-site-contact' },
    ]);
    // And in the sender's own data download, as long as it is kept.
    const data = (await (await t.getPage('/api/account/data', sender.session)).json()) as {
      firstMessagesTheScamShieldStoppedOrWarnedAbout: unknown[];
    };
    expect(data.firstMessagesTheScamShieldStoppedOrWarnedAbout).toEqual([
      expect.objectContaining({
        message: text,
        outcome: 'not sent',
        readAs: ['off-site contact'],
        markedMistakenByAModerator: false,
      }),
    ]);
  });
});
