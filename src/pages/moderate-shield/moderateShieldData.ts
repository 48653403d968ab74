import { getSite } from '../../../core/content/index.ts';
import { moderateShieldPath } from '../../../core/paths.ts';
import { moderatorPageData } from '../moderator-page-data.ts';
import type { DataContext } from '../registry.ts';
import type { ModerateShieldView } from '../../../core/views/shield-review.ts';

/** What the page says after a decision was marked (`?done=…`). */
const DONE_NOTICES: Record<string, string> = {
  marked:
    'Marked as mistaken. Its text waits for the editors as an ordinary message, without who sent it.',
};

/** `/moderate/shield`, for moderators only: the scam shield's recent refusals and warnings. */
export function moderateShieldData({ request }: DataContext<ModerateShieldView>) {
  const { brand } = getSite();
  return moderatorPageData(request, {
    title: `Scam shield - ${brand}`,
    description: `The scam shield's recent refusals and warnings on ${brand}.`,
    path: moderateShieldPath(),
    doneNotices: DONE_NOTICES,
  });
}
