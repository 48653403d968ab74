import { getSite } from '../../../core/content/index.ts';
import { moderatePath } from '../../../core/paths.ts';
import {
  MODERATION_REASONS,
  type ModerationReason,
} from '../../../core/schemas/moderation-reasons.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { ModerationQueueView } from '../../../core/views/moderation.ts';
import type { DataContext } from '../registry.ts';

/**
 * `/moderate`, for moderators only (anyone else gets the not-found screen): the ads waiting for
 * review, oldest first, from the request (its server read, server/http/page-reads/); what the last action did;
 * a refused action's message and what was typed; the ban's confirmation.
 */
export function moderateData({ request }: DataContext<ModerationQueueView>) {
  const { brand } = getSite();
  return {
    ...pageShell({
      title: `Moderation queue - ${brand}`,
      description: `Ads waiting for review on ${brand}.`,
      path: moderatePath(),
      robots: 'noindex, nofollow',
    }),
    access: 'moderators' as const,
    /** Absent on the dev server, which has no database. */
    queue: request?.read,
    error: request?.form?.error,
    /** A refused action's form: which ad or account, and the reason and note typed. */
    typed: request?.form?.values,
    reasons: Object.entries(MODERATION_REASONS) as Array<[ModerationReason, string]>,
  };
}
