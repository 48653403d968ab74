import { getSite } from '../../../core/content/index.ts';
import { moderationLogPath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { ModerationLogView } from '../../../core/views/moderation.ts';
import type { DataContext } from '../registry.ts';

/** `/moderate/log`, for moderators only: every moderation action, newest first, a page at a time. */
export function moderationLogData({ request }: DataContext<ModerationLogView>) {
  const { brand } = getSite();
  return {
    ...pageShell({
      title: `Moderation log - ${brand}`,
      description: `Every moderation action on ${brand}.`,
      path: moderationLogPath(),
      robots: 'noindex, nofollow',
    }),
    access: 'moderators' as const,
    /** Absent on the dev server, which has no database. */
    log: request?.read,
  };
}
