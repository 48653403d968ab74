// /moderate/reports's server read (server/http/page-read.ts), for moderators only: the open reports,
// grouped (server/reports/views.ts), and the ban's confirmation when asked for or when its form
// was refused (server/reports/ban-confirm.ts).
import { pageRead } from '../page-read.ts';
import { banConfirmOf } from '../../reports/ban-confirm.ts';
import { reportsView } from '../../reports/views.ts';
import type { ModerationReportsView } from '../../../core/views/reports.ts';

export const read = pageRead<ModerationReportsView>({
  for: 'moderators',
  read: async ({ c, form }, { store }) => {
    const query = c.req.query();
    const view = await reportsView(store, query);
    const banConfirm = await banConfirmOf(store, view.groups, query, form);
    return { view: { ...view, ...(banConfirm ? { banConfirm } : {}) } };
  },
});
