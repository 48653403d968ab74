// Ads kept off the site (table hidden_ads; docs/product.md section 8): by reports until a
// moderator decides (why 'reports': three different reporters; 'under-18': one report of that
// reason), or for good ('removed': an editor's ad a moderator removed). The build leaves out every
// hidden id of its kind, so the next publish takes the page away. A hiding by reports is written in
// the moderation log as the automatic moderator REPORTS_MODERATOR. When an ad is hidden is the
// reports' rule (server/reports/); this part keeps the list.
import type { AdKind, HiddenWhy } from '../../src/pages/report-view.ts';
import { isStorableId } from './ids.ts';
import { moderationLogStore } from './moderation-log.ts';
import type { StoreContext } from './store.ts';

/** Who the moderation log names for what reports did on their own. */
export const REPORTS_MODERATOR = 'reports (automatic)';

export interface HiddenAd {
  adId: number;
  kind: AdKind;
  why: HiddenWhy;
  hiddenAt: string;
}

/** An ad reports take off the site, and whose it is (for the moderation log). */
export interface HiddenByReports {
  adId: number;
  kind: AdKind;
  why: 'reports' | 'under-18';
  /** The member whose ad it is; null for an editor's. */
  accountId: number | null;
}

export interface HiddenAdStore {
  find(adId: number): Promise<HiddenAd | undefined>;
  /**
   * Hides the ad unless it already is, and logs it; true only for the call that hid it (so only
   * that request asks for a publish). Run it in the unit of work that stored the report.
   */
  hideByReports(hide: HiddenByReports, reason: string, note: string, at: string): Promise<boolean>;
  /** An editor's ad a moderator removed: off the site for good (content/ads/ should lose it). */
  removeForGood(adId: number, kind: AdKind, at: string): Promise<void>;
  /** Back on the site at the next publish; true when it was hidden. */
  unhide(adId: number): Promise<boolean>;
}

export function hiddenAdStore(context: StoreContext): HiddenAdStore {
  const { db } = context;
  // The log's one writer (a hiding is a moderation action, by reports).
  const log = moderationLogStore(context);
  return {
    async find(adId) {
      if (!isStorableId(adId)) return undefined;
      return db
        .selectFrom('hidden_ads')
        .select(['ad_id as adId', 'kind', 'why', 'hidden_at as hiddenAt'])
        .where('ad_id', '=', adId)
        .executeTakeFirst();
    },
    async hideByReports(hide, reason, note, at) {
      const inserted = await db
        .insertInto('hidden_ads')
        .values({ ad_id: hide.adId, kind: hide.kind, why: hide.why, hidden_at: at })
        .onConflict((oc) => oc.column('ad_id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
      const account =
        hide.accountId === null
          ? undefined
          : await db
              .selectFrom('accounts')
              .select('email')
              .where('id', '=', hide.accountId)
              .executeTakeFirst();
      await log.append({
        at,
        by: { name: REPORTS_MODERATOR },
        action: 'hide',
        adId: hide.adId,
        accountId: hide.accountId,
        accountEmail: account?.email ?? null,
        reason,
        note,
      });
      return true;
    },
    async removeForGood(adId, kind, at) {
      await db
        .insertInto('hidden_ads')
        .values({ ad_id: adId, kind, why: 'removed', hidden_at: at })
        .onConflict((oc) => oc.column('ad_id').doUpdateSet({ why: 'removed' }))
        .execute();
    },
    async unhide(adId) {
      if (!isStorableId(adId)) return false;
      const result = await db.deleteFrom('hidden_ads').where('ad_id', '=', adId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
