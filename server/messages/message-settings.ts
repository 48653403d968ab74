// A member's own settings for messages (docs/product.md section 7), from the account page's
// "Messages" form: whether each new request is mailed at once (conversations.ts; else the daily
// digest, request-digest.ts), and read receipts, shown on a conversation only when both of its
// members turned them on.
import type { MessageSettingsInput } from '../../core/schemas/message-settings.ts';
import type { MessageSettingsView } from '../../core/views/message-settings.ts';
import type { MessageSettings } from '../../store/message-settings.ts';
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
