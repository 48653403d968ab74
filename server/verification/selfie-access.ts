// Who sees a verification selfie (docs/product.md section 6, "Verified members"): its member, and
// the moderators, who review verifications; to anyone else its address is the unknown endpoint's
// 404, whether or not it exists. Every time a moderator is sent one, the moderation log says who
// and when (`view-selfie`), so the site can tell afterwards who looked at whose face.
import type { SessionAccount as Member } from '../../store/parts/sessions.ts';
import type { AppPhotos } from '../photos/app-photos.ts';
import type { Store } from '../../store/store.ts';

/** The selfie's bytes for `member`, or undefined: not theirs to see, or its bytes are gone. */
export async function selfieFor(
  store: Store,
  photos: Pick<AppPhotos, 'storage'>,
  member: Member | undefined,
  verificationId: number,
  now: Date,
): Promise<Buffer | undefined> {
  if (!member) return undefined;
  const row = await store.verifications.find(verificationId);
  if (!row?.selfieKey) return undefined;
  const moderator = member.role === 'moderator';
  if (row.accountId !== member.accountId && !moderator) return undefined;
  const bytes = await photos.storage.get(row.selfieKey);
  if (bytes && moderator && row.accountId !== member.accountId)
    await store.moderationLog.append({
      at: now.toISOString(),
      by: { accountId: member.accountId, email: member.email },
      action: 'view-selfie',
      accountId: row.accountId,
      accountEmail: (await store.moderation.account(row.accountId))?.email ?? null,
      note: `verification ${row.id}`,
    });
  return bytes;
}
