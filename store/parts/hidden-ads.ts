// Ads kept off the site (table hidden_ads; docs/product.md section 8): by reports until a
// moderator decides (why 'reports': three different reporters; 'under-18': one report of that
// reason), or for good ('removed': an editor's ad a moderator removed). The build leaves out every
// hidden id of its kind, so the next publish takes the page away. When an ad is hidden, and the
// moderation log's row that says so, are the reports' rules (server/reports/); this part keeps the
// list.
import type { AdKind, HiddenWhy } from '../../core/schemas/report-records.ts';
import { isStorableId } from '../ids.ts';
import type { StoreContext } from '../store-context.ts';
import { changedOne } from './row-count.ts';

export interface HiddenAd {
  adId: number;
  kind: AdKind;
  why: HiddenWhy;
  hiddenAt: string;
}

/** An ad reports take off the site. */
export interface HiddenByReports {
  adId: number;
  kind: AdKind;
  why: 'reports' | 'under-18';
}

export interface HiddenAdStore {
  find(adId: number): Promise<HiddenAd | undefined>;
  /**
   * Hides the ad unless it already is; true only for the call that hid it (so only that request
   * logs it and asks for a publish). Run it in the unit of work that stored the report.
   */
  hideByReports(hide: HiddenByReports, at: string): Promise<boolean>;
  /** An editor's ad a moderator removed: off the site for good (content/ads/ should lose it). */
  removeForGood(adId: number, kind: AdKind, at: string): Promise<void>;
  /** Back on the site at the next publish; true when it was hidden. */
  unhide(adId: number): Promise<boolean>;
}

export function hiddenAdStore({ db }: StoreContext): HiddenAdStore {
  return {
    async find(adId) {
      if (!isStorableId(adId)) return undefined;
      return db
        .selectFrom('hidden_ads')
        .select(['ad_id as adId', 'kind', 'why', 'hidden_at as hiddenAt'])
        .where('ad_id', '=', adId)
        .executeTakeFirst();
    },
    async hideByReports(hide, at) {
      return changedOne(
        db
          .insertInto('hidden_ads')
          .values({ ad_id: hide.adId, kind: hide.kind, why: hide.why, hidden_at: at })
          .onConflict((oc) => oc.column('ad_id').doNothing()),
      );
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
      return changedOne(db.deleteFrom('hidden_ads').where('ad_id', '=', adId));
    },
  };
}
