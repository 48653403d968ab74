// What a member's devices are told of (docs/product.md section 7, "Notifications on this device"):
// - a new message in a conversation they have written in (a chat): always, once they turned
//   notifications on for a device;
// - a first message about their ad they have not answered (a request): if they chose so;
// - a saved search's new ads, when its digest finds some: if they chose so.
// Never a message in their Filtered folder (it is not announced by mail either), never to a banned
// member. The message's text only if they turned that on, and not when the scam shield delivered
// it with a warning (the warning is on the page, beside it). Queued (push-queue.ts): the request
// that stored the message has answered by then.
import type { MailSite } from '../mail/messages.ts';
import type { DueSavedSearch } from '../../store/parts/saved-searches.ts';
import type { Store } from '../../store/store.ts';
import { newMessagePush, savedSearchPush } from './payloads.ts';
import { queuePush } from './push-queue.ts';

/** A message just stored, as messaging tells of it. */
export interface StoredMessage {
  conversationId: number;
  senderId: number;
  /** Its text, shown only to a recipient who turned that on. */
  body: string;
  /** The scam shield delivered it with a warning for its recipient. */
  warned: boolean;
}

/** Queues the push of a new message for its recipient's devices; whether one was queued. */
export async function queueMessagePush(
  store: Store,
  message: StoredMessage,
  site: MailSite,
  now: Date,
): Promise<boolean> {
  const facts = await store.pushes.messageFacts(message.conversationId, message.senderId);
  if (!facts || facts.recipientId === null || facts.filtered || facts.recipientBanned) return false;
  const settings = await store.pushes.settingsOf(facts.recipientId);
  const request = !facts.answered;
  if (request && !settings.requests) return false;
  const text = settings.messageText && !message.warned ? message.body : undefined;
  const payload = newMessagePush(site, message.conversationId, {
    request,
    ...(text === undefined ? {} : { text }),
  });
  return queuePush(
    store,
    facts.recipientId,
    { payload: JSON.stringify(payload), topic: `c${message.conversationId}`, urgency: 'high' },
    now,
  );
}

/** Queues the push of a saved search's new ads, for a member who chose those; whether it was. */
export async function queueSavedSearchPush(
  store: Store,
  saved: Pick<DueSavedSearch, 'id' | 'accountId' | 'query'>,
  count: number,
  site: MailSite,
  now: Date,
): Promise<boolean> {
  if (!(await store.pushes.settingsOf(saved.accountId)).savedSearches) return false;
  const payload = savedSearchPush(site, saved, count);
  return queuePush(
    store,
    saved.accountId,
    { payload: JSON.stringify(payload), topic: `s${saved.id}`, urgency: 'normal' },
    now,
  );
}
