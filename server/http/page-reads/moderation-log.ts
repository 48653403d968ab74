// /moderate/log's server read (server/http/page-read.ts), for moderators only: a page of the log
// (`?page=`; server/moderation/log-view.ts).
import { logView } from '../../moderation/log-view.ts';
import { pageRead } from '../page-read.ts';
import type { ModerationLogView } from '../../../core/views/moderation.ts';

export const read = pageRead<ModerationLogView>({
  for: 'moderators',
  read: async ({ c }, { store }) => ({ view: await logView(store, c.req.query('page')) }),
});
