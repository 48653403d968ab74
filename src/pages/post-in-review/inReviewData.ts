import { getSite } from '../../../core/content/index.ts';
import { postInReviewPath } from '../../../core/paths.ts';
import { AD_LIVE_DAYS, REMIND_BEFORE_DAYS } from '../../../core/schemas/ad-limits.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';

/** `/post/in-review`: where posting an ad ends, saying what happens next. */
export function inReviewData(_context: DataContext) {
  const { brand } = getSite();
  return {
    ...pageShell({
      title: `Your ad is in review - ${brand}`,
      description: `Your ad on ${brand} is waiting for a moderator.`,
      path: postInReviewPath(),
      robots: 'noindex, nofollow',
    }),
    access: 'members' as const,
    brand,
    liveDays: AD_LIVE_DAYS,
    remindDays: REMIND_BEFORE_DAYS,
  };
}
