// Kept for server/db/reports.ts until reports are on the store (server/store/hidden-ads.ts is the
// hiddenAds part, with the same methods, async).
//
// Ads kept off the site (hidden_ads, migration 5; docs/product.md section 8): by reports until a
// moderator decides (why 'reports': three different reporters; 'under-18': one report of that
// reason), or for good ('removed': an editor's ad a moderator removed). The build leaves out every
// hidden id of its kind, so the next publish takes the page away. The hiding itself is written in
// the moderation log as the automatic moderator REPORTS_MODERATOR.
import type { AdKind, HiddenWhy } from '../../src/pages/report-view.ts';
import { REPORTS_MODERATOR } from '../reports/texts.ts';
import type { Db } from './database.ts';

export interface HiddenAd {
  adId: number;
  kind: AdKind;
  why: HiddenWhy;
  hiddenAt: string;
}

export function hiddenAdStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO hidden_ads (ad_id, kind, why, hidden_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (ad_id) DO NOTHING`,
  );
  const removeForGood = db.prepare(
    `INSERT INTO hidden_ads (ad_id, kind, why, hidden_at) VALUES (?, ?, 'removed', ?)
     ON CONFLICT (ad_id) DO UPDATE SET why = 'removed'`,
  );
  const remove = db.prepare('DELETE FROM hidden_ads WHERE ad_id = ?');
  const byId = db.prepare(
    'SELECT ad_id AS adId, kind, why, hidden_at AS hiddenAt FROM hidden_ads WHERE ad_id = ?',
  );
  const insertLog = db.prepare(
    `INSERT INTO moderation_log (at, moderator_id, moderator_email, action, ad_id, account_id,
       account_email, reason, note)
     VALUES (@at, NULL, @moderator, 'hide', @adId, @accountId, @accountEmail, @reason, @note)`,
  );
  const accountEmail = db.prepare('SELECT email FROM accounts WHERE id = ?');

  return {
    find(adId: number): HiddenAd | undefined {
      return byId.get(adId) as HiddenAd | undefined;
    },
    /**
     * Hides the ad unless it already is, and logs it; true only for the call that hid it (so only
     * that request asks for a publish). Run it inside the transaction that stored the report.
     */
    hideByReports(
      hide: { adId: number; kind: AdKind; why: 'reports' | 'under-18'; accountId: number | null },
      reason: string,
      note: string,
      at: string,
    ): boolean {
      if (insert.run(hide.adId, hide.kind, hide.why, at).changes !== 1) return false;
      const email =
        hide.accountId === null
          ? null
          : ((accountEmail.get(hide.accountId) as { email: string } | undefined)?.email ?? null);
      insertLog.run({
        at,
        moderator: REPORTS_MODERATOR,
        adId: hide.adId,
        accountId: hide.accountId,
        accountEmail: email,
        reason,
        note,
      });
      return true;
    },
    /** An editor's ad a moderator removed: off the site for good (content/ads/ should lose it). */
    removeForGood(adId: number, kind: AdKind, at: string): void {
      removeForGood.run(adId, kind, at);
    },
    /** Back on the site at the next publish; true when it was hidden. */
    unhide(adId: number): boolean {
      return remove.run(adId).changes === 1;
    },
  };
}

export type HiddenAdStore = ReturnType<typeof hiddenAdStore>;
