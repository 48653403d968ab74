import { getSite } from '../../../core/content/index.ts';
import { conversationPath } from '../../../core/paths.ts';
import { MESSAGE_MAX_CHARS } from '../../../core/schemas/message.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { ConversationPageView } from '../../../core/views/messages.ts';
import type { DataContext } from '../registry.ts';

/**
 * `/messages/{id}`, for the two members of the conversation only (anyone else gets the same
 * not-found answer as for an id that does not exist): the ad, the messages in order, 50 a page
 * with the newest page first and links to older and newer ones (`?before={message id}`), the
 * reply form on the newest page, Block or Unblock, and Report this conversation. The server reads
 * it and, for the newest page, marks the other side's messages read (its server read, server/http/page-reads/).
 */
export function conversationData({ request, routeParams }: DataContext<ConversationPageView>) {
  const { brand } = getSite();
  const view = request?.read;
  const conversation = view?.kind === 'conversation' ? view : undefined;
  const pageMissing = view?.kind === 'conversation-page-missing' ? view : undefined;
  const about = conversation?.adTitle ?? pageMissing?.adTitle;
  return {
    ...pageShell({
      title: about
        ? `Conversation about "${about}" - ${brand}`
        : `Conversation not found - ${brand}`,
      description: `A conversation on ${brand}.`,
      path: conversationPath(Number(routeParams.conversationId ?? 0)),
      robots: 'noindex, nofollow',
    }),
    access: 'members' as const,
    brand,
    /** Absent for an id that is not the member's, and on the dev server (no database). */
    conversation,
    /** A `?before=` that names no page of the member's conversation (400 or 404). */
    pageMissing,
    canWrite: request?.member ? request.member.emailVerified : true,
    error: request?.form?.error,
    body: request?.form?.values.body ?? '',
    maxChars: MESSAGE_MAX_CHARS,
  };
}
