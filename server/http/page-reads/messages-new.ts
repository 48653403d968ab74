// /messages/new?ad={id}'s server read (server/http/page-read.ts), for the signed-in member: the reply
// form of the ad (or why there is none, 404 for an unknown ad); the member's own conversation
// about that ad instead, if they have one (a redirect to it; not for a refused form, shown again).
import { newMessageTarget } from '../../messages/views.ts';
import { pageRead } from '../page-read.ts';
import { utcDay } from '../../../core/days.ts';
import { idOf } from '../../../core/ids.ts';
import { conversationPath } from '../../../core/paths.ts';
import type { NewMessageView } from '../../../core/views/messages.ts';

export const read = pageRead<NewMessageView>({
  for: 'members',
  read: async ({ c, member, form }, { store, now }) => {
    // `|| undefined`: 0 is no ad's id.
    const adId = idOf(form?.values.ad ?? c.req.query('ad')) || undefined;
    const existing =
      adId === undefined || form
        ? undefined
        : await store.conversations.existingFor(adId, member.accountId);
    if (existing !== undefined) return c.redirect(conversationPath(existing), 303);
    const target = await newMessageTarget(store, adId, member.accountId, utcDay(now()));
    return {
      view: { kind: 'new', target },
      ...(target.kind === 'not-found' ? { status: 404 as const } : {}),
    };
  },
});
