// /messages's server read (server/http/page-read.ts), for the signed-in member: their Chats, or
// with ?folder=requests their Requests, ?folder=filtered their Filtered folder (docs/product.md
// section 7). Any other folder is Chats.
import { inboxView } from '../../messages/views.ts';
import { pageRead } from '../page-read.ts';
import type { InboxFolder, InboxView } from '../../../core/views/messages.ts';

const FOLDERS: readonly InboxFolder[] = ['chats', 'requests', 'filtered'];

export const read = pageRead<InboxView>({
  for: 'members',
  read: async ({ c, member }, { store }) => ({
    view: await inboxView(
      store,
      member.accountId,
      FOLDERS.find((folder) => folder === c.req.query('folder')) ?? 'chats',
    ),
  }),
});
