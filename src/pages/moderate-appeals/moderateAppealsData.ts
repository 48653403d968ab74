import { getSite } from '../../../core/content/index.ts';
import { moderateAppealsPath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';
import type { ModerateAppealsView } from './appeals-view.ts';

/** What the page says after a decision (`?done=…`). */
const DONE_NOTICES: Record<string, string> = {
  upheld: 'The decision stands. The member is mailed your reason.',
  reversed: 'The decision is reversed and undone. The member is mailed.',
};

/** `/moderate/appeals`, for moderators only: open appeals, oldest first, and their decisions. */
export function moderateAppealsData({ request }: DataContext<ModerateAppealsView>) {
  const { brand } = getSite();
  const done = request?.query.done;
  return {
    ...pageShell({
      title: `Appeals - ${brand}`,
      description: `Members' appeals of moderation decisions on ${brand}.`,
      path: moderateAppealsPath(),
      robots: 'noindex, nofollow',
    }),
    access: 'moderators' as const,
    /** Absent on the dev server, which has no database. */
    view: request?.read,
    notice: done ? DONE_NOTICES[done] : undefined,
    error: request?.form?.error,
    typed: request?.form?.values ?? {},
  };
}
