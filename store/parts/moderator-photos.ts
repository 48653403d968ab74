// What each moderator chose about the photos they review (moderator_photo_settings,
// moderator_photo_reveals; docs/product.md section 6): their own "Show all photos
// blurred", and the photos they chose to see while blurred. Which photos are blurred, and the
// texts, are server/moderation/photo-shield.ts's; this part keeps the choices.
import { accountFlag } from './account-flag.ts';
import { isStorableId } from '../ids.ts';
import type { StoreContext } from '../store-context.ts';

export interface ModeratorPhotoStore {
  /** Whether the moderator shows every photo blurred (no choice stored: no). */
  blurAll(accountId: number): Promise<boolean>;
  setBlurAll(accountId: number, on: boolean, at: string): Promise<void>;
  /** Of `photoIds`, those the moderator chose to see. */
  revealed(accountId: number, photoIds: readonly number[]): Promise<Set<number>>;
  /** The moderator chose to see the photo (again: nothing changes). */
  reveal(accountId: number, photoId: number, at: string): Promise<void>;
}

export function moderatorPhotoStore({ db }: StoreContext): ModeratorPhotoStore {
  return {
    blurAll: accountFlag(
      (id) => db.selectFrom('moderator_photo_settings').where('account_id', '=', id),
      'blur_all',
    ),
    async setBlurAll(accountId, on, at) {
      const blur_all = on ? 1 : 0;
      await db
        .insertInto('moderator_photo_settings')
        .values({ account_id: accountId, blur_all, updated_at: at })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ blur_all, updated_at: at }))
        .execute();
    },
    async revealed(accountId, photoIds) {
      const ids = photoIds.filter(isStorableId);
      if (!isStorableId(accountId) || ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('moderator_photo_reveals')
        .select('photo_id')
        .where('account_id', '=', accountId)
        .where('photo_id', 'in', ids)
        .execute();
      return new Set(rows.map((row) => Number(row.photo_id)));
    },
    async reveal(accountId, photoId, at) {
      await db
        .insertInto('moderator_photo_reveals')
        .values({ account_id: accountId, photo_id: photoId, revealed_at: at })
        .onConflict((oc) => oc.columns(['account_id', 'photo_id']).doNothing())
        .execute();
    },
  };
}
