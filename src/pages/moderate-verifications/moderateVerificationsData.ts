import { getSite } from '../../../core/content/index.ts';
import { moderateVerificationsPath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';
import type { ModerateVerificationsView } from './verifications-view.ts';

/** What the page says after a decision (`?done=…`). */
const DONE_NOTICES: Record<string, string> = {
  approved:
    'Approved. The selfie is deleted; the badge shows on the member’s ads after the publish.',
  refused: 'Refused. The member reads the reason and can appeal.',
};

/** `/moderate/verifications`, for moderators only: selfies to check, oldest first. */
export function moderateVerificationsData({ request }: DataContext<ModerateVerificationsView>) {
  const { brand } = getSite();
  const done = request?.query.done;
  return {
    ...pageShell({
      title: `Verifications - ${brand}`,
      description: `Members' verification selfies on ${brand}.`,
      path: moderateVerificationsPath(),
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
