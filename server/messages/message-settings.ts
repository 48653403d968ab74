// A member's own settings for messages (docs/product.md section 7), from the account page's
// "Messages" form: whether each new request is mailed at once (conversations.ts; else the daily
// digest, request-digest.ts), and read receipts, shown on a conversation only when both of its
// members turned them on (`readReceipt`).
import type { MessageSettingsInput } from '../../core/schemas/message-settings.ts';
import type { MessageSettingsView } from '../../core/views/message-settings.ts';
import type { ConversationRow } from '../../store/parts/conversations.ts';
import type { MessageSettings } from '../../store/parts/message-settings.ts';
import type { Store } from '../../store/store.ts';

/** Saves the member's settings, as the account page's form (or JSON) gave them, both at once. */
export async function saveMessageSettings(
  store: Store,
  accountId: number,
  { requestMails, readReceipts }: MessageSettingsInput,
  now: Date,
): Promise<void> {
  const settings = { requestsAtOnce: requestMails === 'at-once', readReceipts };
  await store.messageSettings.save(accountId, settings, now.toISOString());
}

/** The settings as the account page's form shows them. */
export const messageSettingsView = ({
  requestsAtOnce,
  readReceipts,
}: MessageSettings): MessageSettingsView => ({
  requestMails: requestsAtOnce ? 'at-once' : 'daily',
  readReceipts,
});

/**
 * The member's newest message in the conversation, when the other side has read it and both
 * turned read receipts on: its id (the page says "Read" under it); otherwise undefined. Only in a
 * chat: a request (not answered yet) never tells its sender whether it was read.
 */
export async function readReceipt(
  store: Store,
  conversation: Pick<ConversationRow, 'id' | 'answeredAt'>,
  member: number,
  other: number | null,
): Promise<number | undefined> {
  if (other === null || conversation.answeredAt === null) return undefined;
  const conversationId = conversation.id;
  const both = await store.messageSettings.withReadReceipts([member, other]);
  if (!both.has(member) || !both.has(other)) return undefined;
  const last = await store.conversations.lastSentBy(conversationId, member);
  return last?.readAt ? last.id : undefined;
}
