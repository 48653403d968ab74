// The moderators' review of the scam shield, as the store keeps it (store/parts/shield-decisions.ts), on
// SQLite and (in the postgres suite) on PostgreSQL: a decision recorded reads back as it was given,
// newest first, a page at a time; it is marked mistaken once; decisions made before a moment are
// forgotten, and a deleted account leaves its decisions without it; texts to label wait until an
// export marks them, and exported ones are forgotten later; an account's first messages are the
// ones it sent before the other side answered, each text once.
import { beforeEach, describe, expect, it } from 'vitest';
import type { NewShieldDecision } from '../../../store/parts/shield-decisions.ts';
import { accountRow } from '../../helpers/store-accounts.ts';
import { atMinute as at, conversationRow } from '../../helpers/store-ads.ts';
import { storeForEachTest } from '../../helpers/test-store.ts';

const t = storeForEachTest();

const SENDER = 1;
const RECIPIENT = 2;
const OTHER = 3;
const MODERATOR = 4;

beforeEach(async () => {
  for (const id of [SENDER, RECIPIENT, OTHER]) await accountRow(t.sql, id);
  await accountRow(t.sql, MODERATOR, { role: 'moderator' });
});

const decision = (overrides: Partial<NewShieldDecision> = {}): NewShieldDecision => ({
  senderId: SENDER,
  recipientId: RECIPIENT,
  text: 'Add me on telegram, same name',
  outcome: 'refused',
  by: 'signal',
  families: ['off-site-contact'],
  probability: 0.91,
  adjusted: 0.97,
  behaviour: ['account made 2 hours ago', '4 first messages in the last hour'],
  at: at(1),
  ...overrides,
});

describe('decisions', () => {
  it('read back as recorded, newest first, a page at a time', async () => {
    const { shieldDecisions } = t.store;
    const first = await shieldDecisions.record(decision());
    const second = await shieldDecisions.record(
      decision({
        text: 'I need $50 for gas, then I can come over',
        outcome: 'warned',
        by: 'model',
        recipientId: null,
        families: ['money', 'scam-story'],
        probability: 0.6,
        adjusted: 0.5,
        behaviour: [],
        at: at(2),
      }),
    );
    const third = await shieldDecisions.record(decision({ at: at(3), families: [] }));
    expect(second).toBeGreaterThan(first);
    expect(await shieldDecisions.recent(2)).toEqual([
      expect.objectContaining({ id: third, families: [] }),
      {
        id: second,
        senderId: SENDER,
        recipientId: null,
        text: 'I need $50 for gas, then I can come over',
        outcome: 'warned',
        by: 'model',
        families: ['money', 'scam-story'],
        probability: 0.6,
        adjusted: 0.5,
        behaviour: [],
        at: at(2),
        markedMistakenAt: null,
        markedBy: null,
      },
    ]);
    expect((await shieldDecisions.recent(2, second)).map((row) => row.id)).toEqual([first]);
    expect(await shieldDecisions.recent(2, first)).toEqual([]);
    expect(await shieldDecisions.find(first)).toMatchObject({
      behaviour: ['account made 2 hours ago', '4 first messages in the last hour'],
      probability: 0.91,
      adjusted: 0.97,
    });
    expect(await shieldDecisions.find(999)).toBeUndefined();
    expect(await shieldDecisions.find(2 ** 60)).toBeUndefined();
  });

  it('is marked mistaken once', async () => {
    const { shieldDecisions } = t.store;
    const id = await shieldDecisions.record(decision());
    expect(await shieldDecisions.markMistaken(id, MODERATOR, at(5))).toBe(true);
    expect(await shieldDecisions.markMistaken(id, MODERATOR, at(6))).toBe(false);
    expect(await shieldDecisions.find(id)).toMatchObject({
      markedMistakenAt: at(5),
      markedBy: MODERATOR,
    });
    expect(await shieldDecisions.markMistaken(id + 1, MODERATOR, at(6))).toBe(false);
    expect(await shieldDecisions.markMistaken(2 ** 60, MODERATOR, at(6))).toBe(false);
  });

  it('made before a moment: forgotten; an account deleted: its decisions stay without it', async () => {
    const { shieldDecisions } = t.store;
    await shieldDecisions.record(decision({ at: at(1) }));
    const kept = await shieldDecisions.record(decision({ at: at(3), senderId: OTHER }));
    expect(await shieldDecisions.forgetBefore(at(2))).toBe(1);
    expect((await shieldDecisions.recent(10)).map((row) => row.id)).toEqual([kept]);
    await t.store.unitOfWork((tx) => tx.memberData.removeAccount(OTHER, at(4), at(9)));
    await t.store.unitOfWork((tx) => tx.memberData.removeAccount(RECIPIENT, at(4), at(9)));
    expect(await shieldDecisions.find(kept)).toMatchObject({ senderId: null, recipientId: null });
  });
});

describe('texts to label', () => {
  it('wait until an export marks them; exported ones are forgotten later', async () => {
    const { shieldDecisions } = t.store;
    expect(await shieldDecisions.addCandidates([], at(1))).toBe(0);
    expect(
      await shieldDecisions.addCandidates(
        [
          { label: 'ordinary', text: 'Not on WhatsApp, sorry', reason: 'marked-mistaken' },
          { label: 'scam', text: 'Buy me a gift card', reason: 'banned-for-fraud' },
        ],
        at(1),
      ),
    ).toBe(2);
    await shieldDecisions.addCandidates(
      [{ label: 'scam', text: 'My grandmother is ill', reason: 'banned-for-fraud' }],
      at(2),
    );
    const waiting = await shieldDecisions.unexportedCandidates();
    expect(waiting.map(({ id: _, ...row }) => row)).toEqual([
      {
        label: 'ordinary',
        text: 'Not on WhatsApp, sorry',
        reason: 'marked-mistaken',
        createdAt: at(1),
      },
      { label: 'scam', text: 'Buy me a gift card', reason: 'banned-for-fraud', createdAt: at(1) },
      {
        label: 'scam',
        text: 'My grandmother is ill',
        reason: 'banned-for-fraud',
        createdAt: at(2),
      },
    ]);
    const [one, two] = waiting.map((row) => row.id);
    expect(await shieldDecisions.markExported([one!, two!, 2 ** 60], at(3))).toBe(2);
    expect(await shieldDecisions.markExported([one!], at(4))).toBe(0);
    expect((await shieldDecisions.unexportedCandidates()).map((row) => row.text)).toEqual([
      'My grandmother is ill',
    ]);
    expect(await shieldDecisions.forgetExportedBefore(at(3))).toBe(0);
    expect(await shieldDecisions.forgetExportedBefore(at(4))).toBe(2);
    expect(await t.sql.all('SELECT text FROM shield_label_candidates')).toEqual([
      { text: 'My grandmother is ill' },
    ]);
  });
});

describe("an account's first messages", () => {
  const conversation = (poster: number, replier: number) =>
    conversationRow(t, poster, replier, { title: 'Walks' });

  it('are the ones sent before the other side answered, on either side, each text once', async () => {
    const { conversations, shieldDecisions } = t.store;
    // SENDER replies to RECIPIENT's ad: two messages before the answer, one after.
    const replied = await conversation(RECIPIENT, SENDER);
    await conversations.addMessage(replied, SENDER, 'Hi! Gift cards?', at(1));
    await conversations.addMessage(replied, SENDER, 'Send me the code', at(2));
    await conversations.addMessage(replied, RECIPIENT, 'Why?', at(3));
    await conversations.addMessage(replied, SENDER, 'Just do it', at(4));
    // OTHER replies to SENDER's ad: SENDER's replies are first ones until OTHER writes again.
    const answered = await conversation(SENDER, OTHER);
    await conversations.addMessage(answered, OTHER, 'Hello there', at(5));
    await conversations.addMessage(answered, SENDER, 'Move to telegram', at(6));
    await conversations.addMessage(answered, SENDER, 'Hi! Gift cards?', at(7));
    await conversations.addMessage(answered, OTHER, 'No thanks', at(8));
    await conversations.addMessage(answered, SENDER, 'Please', at(9));
    expect(await shieldDecisions.firstMessagesOf(SENDER, 10)).toEqual([
      'Hi! Gift cards?',
      'Send me the code',
      'Move to telegram',
    ]);
    expect(await shieldDecisions.firstMessagesOf(SENDER, 2)).toEqual([
      'Hi! Gift cards?',
      'Send me the code',
    ]);
    expect(await shieldDecisions.firstMessagesOf(OTHER, 10)).toEqual(['Hello there']);
    expect(await shieldDecisions.firstMessagesOf(MODERATOR, 10)).toEqual([]);
  });
});
