// Moderators' decisions across server instances (docs/product.md sections 6 and 12): two instances
// on one PostgreSQL, each with its own store on the same schema, deciding on one ad or account at
// the same moment. On SQLite, the embedded default of one instance, both sides share its one
// store. Of two decisions on one revision, exactly one is made (one log row); the other is told
// who made it. A member's edit racing a decision leaves the ad consistent either way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Refusal } from '../../../core/refusal.ts';
import { banAccount } from '../../../server/moderation/accounts.ts';
import { approveAd, rejectAd, type Moderator } from '../../../server/moderation/ads.ts';
import { editAd } from '../../../server/posting/member-ads.ts';
import type { StoreHandle } from '../../../store/store.ts';
import { onPostgres, openTestStore, type TestStore } from '../../helpers/test-store.ts';
import { outcomeOrRefusal, SAMPLE_MEMBER_AD } from '../../helpers/member-ads.ts';
import { accountInStore } from '../../helpers/store-accounts.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

let dir: string;
let one: TestStore;
/** The other instance's store (the same one on SQLite). */
let two: StoreHandle;
let first: Moderator;
let second: Moderator;
let poster: number;
let accounts = 0;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'localboard-instances-'));
  one = await openTestStore(dir);
  two = onPostgres() ? (await openTestStore(dir)).store : one.store;
  first = await moderator();
  second = await moderator();
  poster = await account('member');
});

afterEach(async () => {
  if (two !== one.store) await two.close();
  await one.store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A new account, made through the store (its role as the operator gives it); its id. */
async function account(role: 'member' | 'moderator'): Promise<number> {
  accounts += 1;
  const id = await accountInStore(one.store, `${role}-${accounts}@example.com`, {
    verified: false,
  });
  if (role === 'moderator') await one.store.moderation.setRole(id, role);
  return id;
}

async function moderator(): Promise<Moderator> {
  const accountId = await account('moderator');
  return { accountId, email: `moderator-${accounts}@example.com` };
}

const adInReview = () =>
  one.store.memberAds.insert(poster, SAMPLE_MEMBER_AD, '[]', new Date().toISOString());

const logOf = (adId: number) =>
  storedRows<{ action: string; moderator_email: string }>(
    one,
    'SELECT action, moderator_email FROM moderation_log WHERE ad_id = ? ORDER BY id',
    adId,
  );

describe('two instances at the same moment', () => {
  it('two moderators approve one revision: one approves, the other is told who did', async () => {
    for (let round = 0; round < 10; round += 1) {
      const id = await adInReview();
      const outcomes = await Promise.all([
        approveAd(one.store, first, id, 1, new Date()),
        approveAd(two, second, id, 1, new Date()),
      ]);
      const done = outcomes.filter((outcome) => outcome.kind === 'done');
      expect(done).toHaveLength(1);
      const winner = outcomes[0]!.kind === 'done' ? first : second;
      const loser = outcomes.find((outcome) => outcome.kind !== 'done')!;
      expect(loser).toEqual({
        kind: 'conflict',
        message: expect.stringMatching(
          new RegExp(`^This ad was already handled by ${winner.email}, who approved it \\(`),
        ) as string,
      });
      expect(await one.store.memberAds.find(id)).toMatchObject({ status: 'live', revision: 2 });
      expect(await logOf(id)).toEqual([{ action: 'approve', moderator_email: winner.email }]);
    }
  });

  it('one approves while the other rejects: one decision, one log row', async () => {
    for (let round = 0; round < 10; round += 1) {
      const id = await adInReview();
      const outcomes = await Promise.all([
        approveAd(one.store, first, id, 1, new Date()),
        rejectAd(two, second, id, 1, { reason: 'Spam or duplicate' }, new Date()),
      ]);
      expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['conflict', 'done']);
      expect(await logOf(id)).toHaveLength(1);
      expect((await one.store.memberAds.find(id))?.revision).toBe(2);
    }
  });

  it('two bans of one account: one ban, the other told it was banned already', async () => {
    const banned = await Promise.all([
      banAccount(one.store, first, poster, { reason: 'Spam or duplicate' }, new Date()),
      banAccount(two, second, poster, { reason: 'Spam or duplicate' }, new Date()),
    ]);
    expect(banned.map((result) => result.kind).sort()).toEqual(['conflict', 'done']);
    expect(banned.find((result) => result.kind === 'conflict')).toMatchObject({
      message: expect.stringMatching(/^This account was already banned by moderator-/) as string,
    });
    const bans = await storedRows(one, "SELECT id FROM moderation_log WHERE action = 'ban'");
    expect(bans).toHaveLength(1);
  });

  it("the member's edit and a moderator's approval: either order, never an error", async () => {
    const edit = { age: 35, seeks: 'm4w' as const, title: 'Edited', description: 'New text.' };
    for (let round = 0; round < 10; round += 1) {
      const id = await adInReview();
      const [edited, approved] = await Promise.all([
        outcomeOrRefusal(editAd(one.store, poster, id, edit, '[]', new Date())),
        approveAd(two, first, id, 1, new Date()),
      ]);
      expect(edited).not.toBeInstanceOf(Refusal);
      const ad = (await one.store.memberAds.find(id))!;
      if (approved.kind === 'done') {
        // Approved first: the edit waits for review beside the live ad.
        expect(ad).toMatchObject({
          status: 'live',
          title: 'Coffee and a walk',
          pendingTitle: 'Edited',
        });
      } else {
        // Edited first: the approval was of a revision that is gone.
        expect(approved).toMatchObject({
          kind: 'conflict',
          message: `Ad ${id} changed since you opened the queue (the member edited it). Look at it again below.`,
        });
        expect(ad).toMatchObject({ status: 'review', title: 'Edited', revision: 2 });
      }
    }
  });
});
