// /messages's server read (server/http/page-read.ts), for the signed-in member: their inbox.
import { inboxView } from '../../../server/messages/views.ts';
import { pageRead } from '../../../server/http/page-read.ts';
import type { InboxView } from '../messages-view.ts';

export const read = pageRead<InboxView>({
  for: 'members',
  read: async ({ member }, { store }) => ({ view: await inboxView(store, member.accountId) }),
});
