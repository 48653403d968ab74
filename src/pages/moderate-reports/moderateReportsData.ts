import { getSite } from '../../../core/content/index.ts';
import { moderateReportsPath } from '../../../core/paths.ts';
import {
  MODERATION_REASONS,
  type ModerationReason,
} from '../../../core/schemas/moderation-reasons.ts';
import { REPORT_REASONS } from '../../../core/schemas/report-reasons.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';
import type { ModerationReportsView } from '../../../core/views/reports.ts';

/**
 * `/moderate/reports`, for moderators only (anyone else gets the not-found screen): the open
 * reports grouped by ad (and by reported conversation), hidden and urgent ones first, from the
 * request (its server read, server/http/page-reads/); what the last action did; a refused action's message.
 */
export function moderateReportsData({ request }: DataContext<ModerationReportsView>) {
  const { brand } = getSite();
  return {
    ...pageShell({
      title: `Reports - ${brand}`,
      description: `Open reports on ${brand}.`,
      path: moderateReportsPath(),
      robots: 'noindex, nofollow',
    }),
    access: 'moderators' as const,
    /** Absent on the dev server, which has no database. */
    reports: request?.read,
    error: request?.form?.error,
    typed: request?.form?.values,
    reasons: Object.entries(MODERATION_REASONS) as Array<[ModerationReason, string]>,
    reportReasons: REPORT_REASONS,
  };
}
