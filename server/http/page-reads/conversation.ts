// /messages/{id}'s server read (server/http/page-read.ts), for the signed-in member: a page of their
// conversation (`?before={message id}`: the page before that message; none: the newest), whose
// opening marks the other side's messages read. A conversation that is not the member's is the
// same 404 as one that does not exist.
import { conversationView } from '../../messages/views.ts';
import { pageRead } from '../page-read.ts';
import { utcDay } from '../../../core/days.ts';
import { idOf } from '../../../core/ids.ts';
import { CONVERSATION_PAGE_SIZE, type ConversationPageView } from '../../../core/views/messages.ts';

export const read = pageRead<ConversationPageView>({
  for: 'members',
  read: async ({ c, member, params }, { store, now }) => {
    // `|| undefined`: 0 is no conversation's or message's id (malformed, as the API takes it).
    const id = idOf(params.conversationId) || undefined;
    const conversation =
      id === undefined ? undefined : await store.conversations.find(id, member.accountId);
    if (!conversation) return { view: { kind: 'conversation-not-found' }, status: 404 };
    // A refused form (a POST) is shown on the newest page, where the reply form is.
    const beforeParam = c.req.method === 'GET' ? c.req.query('before') : undefined;
    const before = beforeParam === undefined ? undefined : idOf(beforeParam) || undefined;
    const missing = (problem: 'malformed' | 'nothing-before') => ({
      view: {
        kind: 'conversation-page-missing' as const,
        conversationId: conversation.id,
        adTitle: conversation.adTitle,
        problem,
      },
      status: problem === 'malformed' ? (400 as const) : (404 as const),
    });
    if (beforeParam !== undefined && before === undefined) return missing('malformed');
    const thread = await store.conversations.page(conversation.id, CONVERSATION_PAGE_SIZE, before);
    if (before !== undefined && thread.messages.length === 0) return missing('nothing-before');
    // The newest page opened by its member: the other side's messages are read now (not by a
    // refused post, nor by reading back through older pages).
    const shown = thread.messages.at(-1);
    if (c.req.method === 'GET' && thread.newer === undefined && shown)
      await store.conversations.markRead(
        conversation.id,
        member.accountId,
        now().toISOString(),
        shown.id,
      );
    return {
      view: await conversationView(store, conversation, member.accountId, thread, {
        done: c.req.query('done'),
        today: utcDay(now()),
      }),
    };
  },
});
