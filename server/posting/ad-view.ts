// A member_ads row as its member sees it on their account pages (src/schemas/member-ad-view.ts).
import type { MemberAdView } from '../../src/schemas/member-ad-view.ts';
import { MODERATION_REASONS } from '../../src/schemas/moderation-reasons.ts';
import { canRenew, isExpired, type MemberAdRow } from '../db/member-ads.ts';

/** The moderator's reason as the member reads it (the forms post a code). */
const reasonLabel = (reason: string) =>
  (MODERATION_REASONS as Record<string, string>)[reason] ?? reason;

export function memberAdView(ad: MemberAdRow, today: string): MemberAdView {
  const status = isExpired(ad, today)
    ? 'expired'
    : ad.status === 'deleted'
      ? 'removed'
      : ad.status === 'live' && ad.hidden
        ? 'hidden'
        : ad.status;
  const hasPending =
    ad.status === 'live' &&
    ad.pendingTitle !== null &&
    ad.pendingDescription !== null &&
    ad.pendingAge !== null &&
    ad.pendingSeeks !== null;
  return {
    id: ad.id,
    state: ad.state,
    city: ad.city,
    age: ad.age,
    seeks: ad.seeks,
    title: ad.title,
    description: ad.description,
    status,
    createdAt: ad.createdAt,
    ...(ad.status === 'live' && ad.expiresOn ? { expiresOn: ad.expiresOn } : {}),
    ...(hasPending
      ? {
          pending: {
            age: ad.pendingAge!,
            seeks: ad.pendingSeeks!,
            title: ad.pendingTitle!,
            description: ad.pendingDescription!,
          },
        }
      : {}),
    ...(ad.rejectedReason ? { rejectedReason: reasonLabel(ad.rejectedReason) } : {}),
    ...(ad.rejectedNote ? { rejectedNote: ad.rejectedNote } : {}),
    renewable: canRenew(ad, today),
    editable: ad.status === 'live' || ad.status === 'review' || ad.status === 'rejected',
  };
}
