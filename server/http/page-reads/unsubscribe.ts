// /unsubscribe/{token}'s server read (server/http/page-read.ts): the saved search the digest's link is
// for, or 404, the page saying the link no longer works. The POST's answer (the button) says
// itself what it did (server/http/routes/unsubscribe.ts).
import {
  savedSearchOfLink,
  UNSUBSCRIBE_GONE,
  unsubscribeView,
} from '../../saved-searches/unsubscribe-links.ts';
import { pageRead } from '../page-read.ts';
import type { UnsubscribeView } from '../../../core/views/unsubscribe.ts';

export const read = pageRead<UnsubscribeView>({
  for: 'anyone',
  read: async ({ params }, { store }) => {
    const saved = await savedSearchOfLink(store, params.token);
    return saved
      ? { view: unsubscribeView(saved, 'confirm') }
      : { view: UNSUBSCRIBE_GONE, status: 404 };
  },
});
