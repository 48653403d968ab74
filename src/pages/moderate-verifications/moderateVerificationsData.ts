import { getSite } from '../../../core/content/index.ts';
import { moderateVerificationsPath } from '../../../core/paths.ts';
import { moderatorPageData } from '../moderator-page-data.ts';
import type { DataContext } from '../registry.ts';
import type { ModerateVerificationsView } from '../../../core/views/moderate-verifications.ts';

/** What the page says after a decision (`?done=…`). */
const DONE_NOTICES: Record<string, string> = {
  approved:
    'Approved. The selfie is deleted; the badge shows on the member’s ads after the publish.',
  refused: 'Refused. The member reads the reason and can appeal.',
};

/** `/moderate/verifications`, for moderators only: selfies to check, oldest first. */
export function moderateVerificationsData({ request }: DataContext<ModerateVerificationsView>) {
  const { brand } = getSite();
  return moderatorPageData(request, {
    title: `Verifications - ${brand}`,
    description: `Members' verification selfies on ${brand}.`,
    path: moderateVerificationsPath(),
    doneNotices: DONE_NOTICES,
  });
}
