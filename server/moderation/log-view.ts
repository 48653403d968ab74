// The moderation log (/moderate/log, docs/product.md section 6) as a moderator sees it
// (core/views/moderation.ts): a page of every action, newest first (log.ts reads it).
import { LOG_PAGE_SIZE, type ModerationLogView } from '../../core/views/moderation.ts';
import { idOf } from '../../core/ids.ts';
import type { Store } from '../../store/store.ts';
import { logPage } from './log.ts';

/** The log's page `pageText` (`?page=`; anything not a page number is the first). */
export async function logView(
  store: Store,
  pageText: string | undefined,
): Promise<ModerationLogView> {
  return { kind: 'log', ...(await logPage(store, idOf(pageText) ?? 1, LOG_PAGE_SIZE)) };
}
