// /messages's server read (server/http/page-read.ts), for the signed-in member: their inbox.
import { inboxView } from '../../messages/views.ts';
import { pageRead } from '../page-read.ts';
import type { InboxView } from '../../../src/pages/messages-view.ts';

export const read = pageRead<InboxView>({
  for: 'members',
  read: async ({ member }, { store }) => ({ view: await inboxView(store, member.accountId) }),
});
