// /report's server read (server/http/page-read.ts), for anyone: the ad or conversation reported, as
// found for this visitor (server/reports/targets.ts), from the query or from the refused form;
// 404 for one unknown to them. `?sent=1`, the thank-you page, reads nothing.
import { pageRead } from '../page-read.ts';
import { findTarget } from '../../reports/targets.ts';
import { utcDay } from '../../../core/days.ts';
import type { ReportTarget } from '../../../core/views/reports.ts';

export const read = pageRead<ReportTarget>({
  for: 'anyone',
  read: async ({ c, member, form }, { store, now }) => {
    const query = c.req.query();
    if (query.sent !== undefined && !form) return {};
    const from = form?.values ?? query;
    const which = { ad: from.ad, conversation: from.conversation };
    const target =
      which.ad !== undefined || which.conversation !== undefined
        ? await findTarget(store, member, which, utcDay(now()))
        : undefined;
    // Signed out with ?conversation: the page itself sends the visitor to sign in first.
    if (!target && which.conversation !== undefined && !member) return {};
    return target ? { view: target.view } : { status: 404 };
  },
});
