// /messages's server read (server/http/page-read.ts), for the signed-in member: their inbox, or
// with ?folder=filtered their Filtered folder (docs/product.md section 7).
import { inboxView } from '../../../server/messages/views.ts';
import { pageRead } from '../../../server/http/page-read.ts';
import type { InboxView } from '../../../core/views/messages.ts';

export const read = pageRead<InboxView>({
  for: 'members',
  read: async ({ c, member }, { store }) => ({
    view: await inboxView(
      store,
      member.accountId,
      c.req.query('folder') === 'filtered' ? 'filtered' : 'inbox',
    ),
  }),
});
