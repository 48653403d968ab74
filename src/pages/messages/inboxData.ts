import { getSite } from '../../../core/content/index.ts';
import { messagesPath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { InboxView } from '../../../core/views/messages.ts';
import type { DataContext } from '../registry.ts';

/**
 * `/messages`, for signed-in members: their Chats, newest activity first, each with its ad, the
 * other side (never their address), the last message's time and the unread count, read from the
 * database by the server (its server read, server/http/page-reads/); with `?folder=requests`
 * their Requests (first messages about their ads not answered yet), with `?folder=filtered` their
 * Filtered folder (conversations about their ads started with one of their hidden words).
 */
export function inboxData({ request }: DataContext<InboxView>) {
  const { brand } = getSite();
  const inbox = request?.read;
  return {
    ...pageShell({
      title: `Messages - ${brand}`,
      description: `Your conversations on ${brand}.`,
      path: messagesPath(),
      robots: 'noindex, nofollow',
    }),
    access: 'members' as const,
    brand,
    /** Absent on the dev server, which has no database: shown as an empty inbox. */
    folder: inbox?.folder ?? 'chats',
    requestsCount: inbox?.requestsCount ?? 0,
    filteredCount: inbox?.filteredCount ?? 0,
    fresh: inbox?.fresh ?? { chats: 0, requests: 0 },
    entries: inbox?.entries ?? [],
    total: inbox?.total ?? 0,
    unread: inbox?.unread ?? 0,
  };
}
