// The daily digests of new requests (store/parts/request-digests.ts), on SQLite and (in the postgres
// suite) on PostgreSQL: who is due, a claim that one caller wins however many ask at once, the
// requests a claim covers, and a claim given back.
import { beforeEach, describe, expect, it } from 'vitest';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';
import { conversationRow } from '../../helpers/store-ads.ts';

const t = storeForEachTest();

const POSTER = 1;
const REPLIER = 2;
const OTHER = 3;
const UNVERIFIED = 4;
const day = (n: number, hour = 10) =>
  `2026-11-${String(20 + n).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;
const verifiedAt = day(0, 0);

beforeEach(async () => {
  for (const id of [POSTER, REPLIER, OTHER]) await accountRow(t.sql, id, { verifiedAt });
  await accountRow(t.sql, UNVERIFIED);
});

async function requestTo(poster: number, replier: number, title: string, at: string) {
  const id = await conversationRow(t, poster, replier, {
    ...{ title, at, state: 'Ohio', city: 'Columbus', description: 'Walks.' },
    ...{ postedOn: '2026-11-20', expiresOn: '2026-12-20' },
  });
  await t.store.conversations.addMessage(id, replier, `About ${title}`, at);
  return id;
}

const claim = (now: string, afterId = 0) =>
  t.store.requestDigests.claimDue(
    new Date(new Date(now).getTime() - 24 * 3_600_000).toISOString(),
    afterId,
    50,
    now,
  );

describe('request digests', () => {
  it('claims members with unread requests once a day, each claim covering what came since', async () => {
    await requestTo(POSTER, REPLIER, 'Hikes', day(1, 8));
    await requestTo(UNVERIFIED, REPLIER, 'Not mailed', day(1, 8));
    const first = await claim(day(1, 9));
    expect(first.claimed).toEqual([
      { accountId: POSTER, email: 'member-1@example.com', since: null },
    ]);
    expect(await t.store.requestDigests.newRequests(POSTER, null, day(1, 9))).toEqual([
      { conversationId: expect.any(Number), adTitle: 'Hikes', messages: 1 },
    ]);
    await t.store.requestDigests.recordMailed(POSTER, day(1, 9));
    // Nothing new: not due, however many runs look.
    expect((await claim(day(1, 10))).claimed).toEqual([]);
    // A new request the same day waits for the next day.
    await requestTo(POSTER, OTHER, 'Tacos', day(1, 11));
    expect((await claim(day(1, 12))).claimed).toEqual([]);
    // 24 hours after the last claim is not yet more than 24 hours.
    expect((await claim(day(2, 9))).claimed).toEqual([]);
    const next = await claim(day(2, 10));
    expect(next.claimed).toEqual([
      { accountId: POSTER, email: 'member-1@example.com', since: day(1, 9) },
    ]);
    expect(await t.store.requestDigests.newRequests(POSTER, day(1, 9), day(2, 10))).toEqual([
      { conversationId: expect.any(Number), adTitle: 'Tacos', messages: 1 },
    ]);
  });

  it('leaves out what was read, answered, or written by a member banned since', async () => {
    const read = await requestTo(POSTER, REPLIER, 'Read', day(1, 8));
    const answered = await requestTo(POSTER, OTHER, 'Answered', day(1, 8));
    await t.store.conversations.markRead(read, POSTER, day(1, 8), Number.MAX_SAFE_INTEGER);
    await t.store.conversations.addMessage(answered, POSTER, 'Hi', day(1, 8));
    expect((await claim(day(1, 9))).claimed).toEqual([]);
    await requestTo(OTHER, REPLIER, 'Banned writer', day(1, 8));
    await t.sql.run('UPDATE accounts SET banned_at = ? WHERE id = ?', day(1, 8), REPLIER);
    expect((await claim(day(1, 9))).claimed).toEqual([]);
  });

  it('leaves out members who chose each request at once', async () => {
    await requestTo(POSTER, REPLIER, 'Hikes', day(1, 8));
    await t.store.messageSettings.save(
      POSTER,
      { requestsAtOnce: true, readReceipts: false },
      day(1, 8),
    );
    expect((await claim(day(1, 9))).claimed).toEqual([]);
  });

  it('lets one of several runs at once claim a member', async () => {
    await requestTo(POSTER, REPLIER, 'Hikes', day(1, 8));
    const runs = await Promise.all([claim(day(1, 9)), claim(day(1, 9)), claim(day(1, 9))]);
    expect(runs.flatMap((run) => run.claimed.map((digest) => digest.accountId))).toEqual([POSTER]);
  });

  it('gives a claim back when its mail failed: due again, from where it was', async () => {
    await requestTo(POSTER, REPLIER, 'Hikes', day(1, 8));
    await claim(day(1, 9));
    expect(await t.store.requestDigests.release(POSTER, day(1, 9), null)).toBe(true);
    expect((await claim(day(1, 10))).claimed).toEqual([
      { accountId: POSTER, email: 'member-1@example.com', since: null },
    ]);
    await t.store.requestDigests.recordMailed(POSTER, day(1, 10));
    await requestTo(POSTER, OTHER, 'Tacos', day(2, 11));
    await claim(day(2, 12));
    expect(await t.store.requestDigests.release(POSTER, day(2, 12), day(1, 10))).toBe(true);
    // Claimed again since: nothing given back.
    expect((await claim(day(2, 13))).claimed[0]?.since).toBe(day(1, 10));
    expect(await t.store.requestDigests.release(POSTER, day(2, 12), day(1, 10))).toBe(false);
  });
});
