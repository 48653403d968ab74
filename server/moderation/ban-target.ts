// The account a ban's confirmation is about (core/views/moderation.ts BanTarget): on the queue
// (queue-view.ts) and on a report group's ban (server/reports/ban-confirm.ts).
import type { BanTarget, ModerationQueueView } from '../../core/views/moderation.ts';
import type { PosterRow } from '../../store/parts/moderation.ts';

/** The account a ban's confirmation is about, unless it cannot be banned (banned, a moderator). */
export function banTargetFrom(
  account: PosterRow | undefined,
): Pick<ModerationQueueView, 'banTarget'> {
  if (!account || account.bannedAt || account.role === 'moderator') return {};
  const banTarget: BanTarget = {
    accountId: account.accountId,
    email: account.email,
    joinedAt: account.createdAt,
    adsInReview: account.adsInReview,
    adsLive: account.adsLive,
  };
  return { banTarget };
}
