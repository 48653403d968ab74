import { getSite } from '../../../core/content/index.ts';
import { moderateAppealsPath } from '../../../core/paths.ts';
import { moderatorPageData } from '../moderator-page-data.ts';
import type { DataContext } from '../registry.ts';
import type { ModerateAppealsView } from '../../../core/views/moderate-appeals.ts';

/** What the page says after a decision (`?done=…`). */
const DONE_NOTICES: Record<string, string> = {
  upheld: 'The decision stands. The member is mailed your reason.',
  reversed: 'The decision is reversed and undone. The member is mailed.',
};

/** `/moderate/appeals`, for moderators only: open appeals, oldest first, and their decisions. */
export function moderateAppealsData({ request }: DataContext<ModerateAppealsView>) {
  const { brand } = getSite();
  return moderatorPageData(request, {
    title: `Appeals - ${brand}`,
    description: `Members' appeals of moderation decisions on ${brand}.`,
    path: moderateAppealsPath(),
    doneNotices: DONE_NOTICES,
  });
}
