// The reports part of the store, on SQLite and (in the postgres suite) on PostgreSQL.
import { beforeEach, describe, expect, it } from 'vitest';
import type { AdCopy, NewReportRow, ReportGroupKey } from '../../../store/parts/reports.ts';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';
import { AD_ROW, adRow, atMinute as at } from '../../helpers/store-ads.ts';

const t = storeForEachTest();

const POSTER = 1;
const MODERATOR = 2;
const REPLIER = 3;
const AD = 100000001;
const OTHER_AD = 100000002;

const copy = (overrides: Partial<AdCopy> = {}): AdCopy => ({
  kind: 'member',
  id: AD,
  ...AD_ROW,
  postedAt: '2026-11-23',
  sample: false,
  ...overrides,
});

const report = (overrides: Partial<NewReportRow> = {}): NewReportRow => ({
  adId: AD,
  conversationId: null,
  reportedAccountId: POSTER,
  reporterKey: 'address:aaa',
  reporterAccountId: null,
  reason: 'spam',
  note: '',
  adCopy: copy(),
  thread: null,
  createdAt: at(0),
  round: 1,
  reporterDismissed: 0,
  ...overrides,
});

const adGroup: ReportGroupKey = { kind: 'ad', adId: AD };

beforeEach(async () => {
  for (const [id, email] of [
    [POSTER, 'poster@example.com'],
    [MODERATOR, 'moderator@example.com'],
    [REPLIER, 'replier@example.com'],
  ] as const)
    await accountRow(t.sql, id, { email, at: at(0) });
  await adRow(t.sql, POSTER, { id: AD });
});

/** A conversation between POSTER and REPLIER about AD; its id. */
async function conversation(): Promise<number> {
  const row = await t.sql.get<{ id: number }>(
    `INSERT INTO conversations (ad_id, ad_title, poster_id, replier_id, started_at,
       last_message_at) VALUES (?, 'Sunday hikes', ?, ?, ?, ?) RETURNING id`,
    AD,
    POSTER,
    REPLIER,
    at(0),
    at(0),
  );
  return row!.id;
}

describe('reports', () => {
  it('stores a report and reads it back as the moderators see it', async () => {
    const reports = t.store.reports;
    const id = await reports.insert(
      report({ reporterKey: `account:${REPLIER}`, reporterAccountId: REPLIER, note: 'Asks money' }),
    );
    expect(id).toEqual(expect.any(Number));
    expect(await reports.open(10)).toEqual([
      {
        id,
        adId: AD,
        conversationId: null,
        reportedAccountId: POSTER,
        byMember: true,
        reason: 'spam',
        note: 'Asks money',
        adCopy: copy(),
        thread: null,
        createdAt: at(0),
        reporterDismissed: 0,
      },
    ]);
    expect(await reports.openCount()).toBe(1);
    expect(await reports.openInGroup(adGroup)).toHaveLength(1);
    expect(await reports.openInGroup({ kind: 'ad', adId: OTHER_AD })).toEqual([]);
  });

  it('refuses a second report of one reporter, ad and round, and of one conversation', async () => {
    const reports = t.store.reports;
    expect(await reports.insert(report())).toBeDefined();
    expect(await reports.insert(report({ reason: 'other' }))).toBeUndefined();
    expect(await reports.insert(report({ round: 2 }))).toBeDefined();
    expect(await reports.insert(report({ reporterKey: 'address:bbb' }))).toBeDefined();
    const conversationId = await conversation();
    const aboutIt = report({
      conversationId,
      reporterKey: `account:${REPLIER}`,
      reporterAccountId: REPLIER,
      thread: [{ from: 'reported', at: at(1), body: 'Send money' }],
    });
    expect(await reports.insert(aboutIt)).toBeDefined();
    expect(await reports.insert({ ...aboutIt, round: 2 })).toBeUndefined();
    expect(await reports.openCount()).toBe(4);
    // A conversation's reports do not count as reporters of the ad, nor as the reporter's rounds.
    expect(await reports.openReporters(AD)).toBe(2);
    expect(await reports.lastOfReporter(AD, `account:${REPLIER}`)).toBeUndefined();
    const group = { kind: 'conversation' as const, conversationId, reportedAccountId: POSTER };
    expect(await reports.openInGroup(group)).toEqual([
      expect.objectContaining({
        conversationId,
        byMember: true,
        thread: [{ from: 'reported', at: at(1), body: 'Send money' }],
      }),
    ]);
  });

  it("reads a reporter's last round, open or decided", async () => {
    const reports = t.store.reports;
    expect(await reports.lastOfReporter(AD, 'address:aaa')).toBeUndefined();
    await reports.insert(report());
    expect(await reports.lastOfReporter(AD, 'address:aaa')).toEqual({
      round: 1,
      open: true,
      adCopy: copy(),
    });
    await reports.resolveGroup(adGroup, Number.MAX_SAFE_INTEGER, 'dismissed', MODERATOR, at(5));
    await reports.insert(report({ round: 2, adCopy: copy({ title: 'Saturday hikes' }) }));
    expect(await reports.lastOfReporter(AD, 'address:aaa')).toEqual({
      round: 2,
      open: true,
      adCopy: copy({ title: 'Saturday hikes' }),
    });
    await reports.resolveGroup(adGroup, Number.MAX_SAFE_INTEGER, 'removed', MODERATOR, at(6));
    expect(await reports.lastOfReporter(AD, 'address:aaa')).toMatchObject({
      round: 2,
      open: false,
    });
    // An id beyond any row's (from a URL) has no reports.
    expect(await reports.lastOfReporter(999_999_999_999_999_999, 'address:aaa')).toBeUndefined();
  });

  it("counts a reporter's reports of a reason dismissed since a time", async () => {
    const reports = t.store.reports;
    await reports.insert(report({ reason: 'under-18' }));
    await reports.resolveGroup(adGroup, Number.MAX_SAFE_INTEGER, 'dismissed', MODERATOR, at(5));
    await reports.insert(report({ adId: OTHER_AD, reason: 'under-18' }));
    const other = { kind: 'ad' as const, adId: OTHER_AD };
    await reports.resolveGroup(other, Number.MAX_SAFE_INTEGER, 'removed', MODERATOR, at(6));
    expect(await reports.dismissedOf('address:aaa', 'under-18', at(5))).toBe(1);
    expect(await reports.dismissedOf('address:aaa', 'under-18', at(6))).toBe(0);
    expect(await reports.dismissedOf('address:aaa', 'spam', at(0))).toBe(0);
    expect(await reports.dismissedOf('address:bbb', 'under-18', at(0))).toBe(0);
  });

  it('resolves a group up to the report the moderator saw, and tells who decided it last', async () => {
    const reports = t.store.reports;
    const first = (await reports.insert(report()))!;
    const second = (await reports.insert(report({ reporterKey: 'address:bbb' })))!;
    await reports.insert(report({ reporterKey: 'address:ccc', adId: OTHER_AD }));
    expect(await reports.lastResolved(adGroup)).toBeUndefined();
    // The moderator saw only the first: the second stays open.
    expect(await reports.resolveGroup(adGroup, first, 'dismissed', MODERATOR, at(5))).toBe(1);
    expect((await reports.openInGroup(adGroup)).map((row) => row.id)).toEqual([second]);
    expect(await reports.resolveGroup(adGroup, second, 'removed', MODERATOR, at(6))).toBe(1);
    expect(await reports.resolveGroup(adGroup, second, 'removed', MODERATOR, at(7))).toBe(0);
    expect(await reports.openInGroup(adGroup)).toEqual([]);
    expect(await reports.lastResolved(adGroup)).toEqual({
      resolution: 'removed',
      resolvedAt: at(6),
      moderator: 'moderator@example.com',
    });
    const row = await t.sql.get('SELECT resolved_by, resolution FROM reports WHERE id = ?', second);
    expect(row).toEqual({ resolved_by: MODERATOR, resolution: 'removed' });
    // The other ad's report is another group.
    expect(await reports.openCount()).toBe(1);
    // Once the moderator's account is gone, the group was decided by someone unnamed.
    await t.sql.run('DELETE FROM accounts WHERE id = ?', MODERATOR);
    expect(await reports.lastResolved(adGroup)).toMatchObject({ moderator: null });
  });

  it("groups a conversation's reports by the member reported, 0 once their account is gone", async () => {
    const reports = t.store.reports;
    const conversationId = await conversation();
    const aboutPoster = report({ conversationId, reporterKey: `account:${REPLIER}` });
    await reports.insert(aboutPoster);
    await reports.insert({
      ...aboutPoster,
      reportedAccountId: REPLIER,
      reporterKey: `account:${POSTER}`,
    });
    const ofPoster = { kind: 'conversation' as const, conversationId, reportedAccountId: POSTER };
    expect(await reports.openInGroup(ofPoster)).toHaveLength(1);
    await t.sql.run('DELETE FROM accounts WHERE id = ?', POSTER);
    expect(await reports.openInGroup(ofPoster)).toEqual([]);
    const ofGone = { ...ofPoster, reportedAccountId: 0 };
    expect(await reports.openInGroup(ofGone)).toHaveLength(1);
    expect(await reports.resolveGroup(ofGone, Number.MAX_SAFE_INTEGER, 'dismissed', 2, at(5))).toBe(
      1,
    );
    expect(await reports.lastResolved(ofGone)).toMatchObject({ resolution: 'dismissed' });
    // Ids beyond any row's name no group.
    const beyond = { ...ofPoster, conversationId: 999_999_999_999_999_999 };
    expect(await reports.openInGroup(beyond)).toEqual([]);
    expect(await reports.lastResolved(beyond)).toBeUndefined();
    expect(await reports.resolveGroup(beyond, 1, 'dismissed', 2, at(5))).toBe(0);
  });

  it('counts open reports, hidden ads and urgent ones for the queue', async () => {
    const reports = t.store.reports;
    const hidden = t.store.hiddenAds;
    expect(await reports.openCounts('under-18')).toEqual({
      open: 0,
      hiddenAds: 0,
      urgentAds: 0,
      urgentOnSite: 0,
    });
    // Hidden by reports, one of them urgent.
    await reports.insert(report({ reason: 'under-18' }));
    await hidden.hideByReports({ adId: AD, kind: 'member', why: 'reports' }, at(1));
    // Hidden as "under 18".
    await reports.insert(report({ adId: OTHER_AD }));
    await hidden.hideByReports({ adId: OTHER_AD, kind: 'member', why: 'under-18' }, at(1));
    // Urgent and on the site (a doubted reporter's), twice for one ad.
    await reports.insert(report({ adId: 990001, reason: 'under-18' }));
    await reports.insert(report({ adId: 990001, reason: 'under-18', reporterKey: 'address:b' }));
    // Hidden, but with no open report left; removed for good is not "hidden by reports".
    await hidden.hideByReports({ adId: 990002, kind: 'editor', why: 'reports' }, at(1));
    await reports.insert(report({ adId: 990003 }));
    await hidden.removeForGood(990003, 'editor', at(2));
    expect(await reports.openCounts('under-18')).toEqual({
      open: 5,
      hiddenAds: 2,
      urgentAds: 2,
      urgentOnSite: 1,
    });
  });
});
