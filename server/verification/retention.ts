// How long a verification selfie's bytes are kept (docs/product.md section 6, "Verified members"):
// deleted as soon as it is approved; 30 days after a refusal, unless an appeal of it is open
// (then once it is decided and those days are over); at once when the account is deleted. The row
// keeps who, when, the level, the photos, the moderator, the code's hash and the selfie's
// perceptual hash (to refuse its reuse). The hourly photo sweep runs sweepRefusedSelfies.
import { REFUSED_SELFIE_DAYS } from '../../core/schemas/verification.ts';
import type { AppPhotos } from '../photos/app-photos.ts';
import type { Store } from '../../store/store.ts';

const DAY = 24 * 60 * 60 * 1000;

/** Deletes one verification's selfie: the row forgets the key, then the bytes go. */
export async function forgetSelfie(
  store: Store,
  photos: Pick<AppPhotos, 'storage'>,
  row: { id: number; selfieKey: string | null },
  now: Date,
): Promise<void> {
  if (!row.selfieKey) return;
  await store.verifications.forgetSelfie(row.id, now.toISOString());
  await photos.storage.delete([row.selfieKey]);
}

/** Refused selfies past their days and without an open appeal (and any left by a reversal): deleted; how many. */
export async function sweepRefusedSelfies(
  store: Store,
  photos: Pick<AppPhotos, 'storage'>,
  now: Date,
): Promise<number> {
  const before = new Date(now.getTime() - REFUSED_SELFIE_DAYS * DAY).toISOString();
  const due = await store.verifications.selfiesDue(before);
  for (const row of due) await forgetSelfie(store, photos, { id: row.id, selfieKey: row.key }, now);
  return due.length;
}

/** The account is being deleted: its selfies' bytes go now (the rows go with the account). */
export async function deleteSelfiesOf(
  store: Store,
  photos: Pick<AppPhotos, 'storage'>,
  accountId: number,
  now: Date,
): Promise<void> {
  for (const row of await store.verifications.selfiesOf(accountId))
    await forgetSelfie(store, photos, { id: row.id, selfieKey: row.key }, now);
}
