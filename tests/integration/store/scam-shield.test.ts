// The scam shield's part of the store (and the messages' `answered`, print and warnings), on SQLite
// and (in the postgres suite) on PostgreSQL: whether a sender's messages are answered, a message's
// warnings and print as stored, who received one print from a sender, which new accounts sent
// one, the sender's record by family and outcome, and the flags: one open a print (also when two
// units flag it at once), accounts added to it, dismissed once; an account's rows go with it.
import { beforeEach, describe, expect, it } from 'vitest';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';
import { atMinute as at, conversationRow } from '../../helpers/store-ads.ts';

const t = storeForEachTest();

const POSTER = 1;
const REPLIER = 2;
const OTHER_POSTER = 3;
const NEWCOMER = 4;
const PRINT = 'a'.repeat(64);

beforeEach(async () => {
  for (const [id, createdAt] of [
    [POSTER, '2026-10-01T00:00:00.000Z'],
    [REPLIER, '2026-10-01T00:00:00.000Z'],
    [OTHER_POSTER, '2026-10-01T00:00:00.000Z'],
    [NEWCOMER, '2026-11-23T00:00:00.000Z'],
  ] as const)
    await accountRow(t.sql, id, { at: createdAt });
});

const conversation = (poster: number, replier: number) => conversationRow(t, poster, replier);

describe('messages, as the scam shield reads and writes them', () => {
  it('answered: only once the other side wrote after the sender’s first message', async () => {
    const id = await conversation(POSTER, REPLIER);
    const { conversations } = t.store;
    expect(await conversations.answered(id, REPLIER)).toBe(false);
    await conversations.addMessage(id, REPLIER, 'hi', at(1));
    expect(await conversations.answered(id, REPLIER)).toBe(false);
    // The poster has written nothing: not answered. Their first reply is not answered either.
    expect(await conversations.answered(id, POSTER)).toBe(false);
    await conversations.addMessage(id, POSTER, 'hello', at(2));
    expect(await conversations.answered(id, POSTER)).toBe(false);
    expect(await conversations.answered(id, REPLIER)).toBe(true);
    await conversations.addMessage(id, REPLIER, 'how are you?', at(3));
    expect(await conversations.answered(id, POSTER)).toBe(true);
    // Another conversation's messages never count.
    const other = await conversation(OTHER_POSTER, REPLIER);
    await conversations.addMessage(other, REPLIER, 'hi', at(4));
    expect(await conversations.answered(other, REPLIER)).toBe(false);
  });

  it('keeps a message’s warnings and print', async () => {
    const id = await conversation(POSTER, REPLIER);
    await t.store.conversations.addMessage(id, REPLIER, 'plain', at(1));
    await t.store.conversations.addMessage(id, REPLIER, 'warned', at(2), {
      scamWarnings: ['money', 'crypto'],
      print: PRINT,
    });
    expect(
      (await t.store.conversations.messages(id)).map(({ body, scamWarnings }) => ({
        body,
        scamWarnings,
      })),
    ).toEqual([
      { body: 'plain', scamWarnings: [] },
      { body: 'warned', scamWarnings: ['money', 'crypto'] },
    ]);
    const page = await t.store.conversations.page(id, 50);
    expect(page.messages.map((message) => message.scamWarnings)).toEqual([[], ['money', 'crypto']]);
    expect(
      await t.sql.all('SELECT print FROM messages WHERE conversation_id = ? ORDER BY id', id),
    ).toEqual([{ print: null }, { print: PRINT }]);
  });
});

describe('the same first message', () => {
  it('is read back by its recipients, one sender at a time, within the window', async () => {
    const first = await conversation(POSTER, REPLIER);
    const second = await conversation(OTHER_POSTER, REPLIER);
    const third = await conversation(REPLIER, NEWCOMER);
    const { conversations, scamShield } = t.store;
    await conversations.addMessage(first, REPLIER, 'x', at(1), { print: PRINT });
    await conversations.addMessage(first, REPLIER, 'x', at(2), { print: PRINT });
    await conversations.addMessage(second, REPLIER, 'x', at(3), { print: PRINT });
    // The replier as the poster of an ad, writing to who replied to it.
    await conversations.addMessage(third, REPLIER, 'x', at(4), { print: PRINT });
    await conversations.addMessage(third, NEWCOMER, 'x', at(5), { print: PRINT });
    expect((await scamShield.printRecipients(REPLIER, PRINT, at(0))).sort()).toEqual([
      POSTER,
      OTHER_POSTER,
      NEWCOMER,
    ]);
    expect(await scamShield.printRecipients(REPLIER, PRINT, at(2))).toEqual(
      expect.arrayContaining([OTHER_POSTER, NEWCOMER]),
    );
    expect(await scamShield.printRecipients(REPLIER, PRINT, at(3))).toEqual([NEWCOMER]);
    expect(await scamShield.printRecipients(REPLIER, 'b'.repeat(64), at(0))).toEqual([]);
    // Senders whose accounts are new: only the newcomer's.
    expect(await scamShield.newSendersOfPrint(PRINT, at(0), '2026-11-17T00:00:00.000Z')).toEqual([
      NEWCOMER,
    ]);
    expect(await scamShield.newSendersOfPrint(PRINT, at(0), '2026-09-01T00:00:00.000Z')).toEqual([
      REPLIER,
      NEWCOMER,
    ]);
    expect(await scamShield.newSendersOfPrint(PRINT, at(5), '2026-09-01T00:00:00.000Z')).toEqual(
      [],
    );
  });
});

describe("the sender's record", () => {
  it('counts refusals and warnings by family, most first; goes with the account', async () => {
    const { scamShield } = t.store;
    for (const [family, outcome] of [
      ['money', 'refused'],
      ['off-site-contact', 'refused'],
      ['off-site-contact', 'refused'],
      ['money', 'warned'],
    ] as const)
      await scamShield.recordOutcome(REPLIER, family, outcome, at(1));
    await scamShield.recordOutcome(POSTER, 'crypto', 'warned', at(1));
    expect(await scamShield.record(REPLIER)).toEqual([
      { family: 'off-site-contact', outcome: 'refused', count: 2 },
      { family: 'money', outcome: 'refused', count: 1 },
      { family: 'money', outcome: 'warned', count: 1 },
    ]);
    expect(await scamShield.record(NEWCOMER)).toEqual([]);
    await t.sql.run('DELETE FROM accounts WHERE id = ?', REPLIER);
    expect(await t.sql.all('SELECT account_id FROM scam_outcomes')).toEqual([
      { account_id: POSTER },
    ]);
  });
});

describe('flags of the same first message from new accounts', () => {
  it('one open flag a print, its accounts added, dismissed once', async () => {
    const { scamShield } = t.store;
    const id = await scamShield.flagRepeated(PRINT, 'Hi sweetie', [REPLIER, NEWCOMER], at(1));
    expect(await scamShield.flagRepeated(PRINT, 'hi  sweetie!', [NEWCOMER, POSTER], at(2))).toBe(
      id,
    );
    const flags = await scamShield.openFlags();
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ id, sample: 'Hi sweetie', flaggedAt: at(1) });
    // Oldest account first.
    expect(flags[0]!.accounts.map((account) => account.accountId)).toEqual([
      POSTER,
      REPLIER,
      NEWCOMER,
    ]);
    expect(flags[0]!.accounts[2]).toEqual({
      accountId: NEWCOMER,
      email: 'member-4@example.com',
      createdAt: '2026-11-23T00:00:00.000Z',
      bannedAt: null,
    });
    expect(await scamShield.lastDismissal(PRINT)).toBeUndefined();
    expect(await scamShield.dismissFlag(id, POSTER, at(3))).toBe(true);
    expect(await scamShield.dismissFlag(id, POSTER, at(4))).toBe(false);
    expect(await scamShield.openFlags()).toEqual([]);
    expect(await scamShield.lastDismissal(PRINT)).toBe(at(3));
    // After the dismissal, a new flag of the same print.
    const next = await scamShield.flagRepeated(PRINT, 'Hi sweetie', [NEWCOMER], at(5));
    expect(next).not.toBe(id);
    expect((await scamShield.openFlags()).map((flag) => flag.id)).toEqual([next]);
  });

  it('flagged by many units at once: one flag, with every account', async () => {
    const { store } = t;
    const ids = await Promise.all(
      [REPLIER, NEWCOMER, POSTER, OTHER_POSTER].map((account) =>
        store.unitOfWork((tx) => tx.scamShield.flagRepeated(PRINT, 'Hi', [account], at(1))),
      ),
    );
    expect(new Set(ids).size).toBe(1);
    const flags = await store.scamShield.openFlags();
    expect(flags).toHaveLength(1);
    expect(flags[0]!.accounts.map((account) => account.accountId).sort()).toEqual([
      POSTER,
      REPLIER,
      OTHER_POSTER,
      NEWCOMER,
    ]);
  });
});
