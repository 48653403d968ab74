// The limits of messaging (docs/product.md section 7), counted in the store so that they hold
// however many server instances a member's requests land on:
// - conversations: accounts younger than NEW_ACCOUNT_HOURS start at most NEW_ACCOUNT_CONVERSATIONS
//   in CONVERSATION_WINDOW_HOURS, anyone at most MAX_CONVERSATIONS (counted as the conversations
//   they started as the replier);
// - messages: anyone sends at most MESSAGES_PER_WINDOW in MESSAGE_WINDOW_MINUTES, in all their
//   conversations (counted as the messages stored).
// Each is read, then the message written, in one unit of work that holds the member's lock
// (`account:{id}`, conversations.ts): two requests racing on two instances cannot both pass.
import {
  CONVERSATION_WINDOW_HOURS,
  MAX_CONVERSATIONS,
  MESSAGE_WINDOW_MINUTES,
  MESSAGES_PER_WINDOW,
  NEW_ACCOUNT_CONVERSATIONS,
  NEW_ACCOUNT_HOURS,
} from '../../core/schemas/message.ts';
import type { Store } from '../../store/store.ts';

const HOUR_MS = 60 * 60 * 1000;

/** Messages a member may send within a window. */
export interface MessageLimit {
  points: number;
  /** The window, in seconds. */
  duration: number;
}

export const DEFAULT_MESSAGE_LIMIT: MessageLimit = {
  points: MESSAGES_PER_WINDOW,
  duration: MESSAGE_WINDOW_MINUTES * 60,
};

/** The member has started as many conversations as they may for now. */
export interface ConversationLimitReached {
  refused: 'conversation-limit';
  limit: number;
  newAccount: boolean;
  /** When the next one is possible (ISO time). */
  nextAt: string;
}

/** The member has sent as many messages as they may for now. */
export interface MessageLimitReached {
  refused: 'message-limit';
  limit: MessageLimit;
  /** When the next one is possible (ISO time). */
  nextAt: string;
}

/** Whether the replier (an account created at `createdAt`) may start another conversation now. */
export async function conversationLimitReached(
  tx: Store,
  replierId: number,
  createdAt: string,
  now: Date,
): Promise<ConversationLimitReached | undefined> {
  const grownUpAt = Date.parse(createdAt) + NEW_ACCOUNT_HOURS * HOUR_MS;
  const newAccount = now.getTime() < grownUpAt;
  const limit = newAccount ? NEW_ACCOUNT_CONVERSATIONS : MAX_CONVERSATIONS;
  const since = new Date(now.getTime() - CONVERSATION_WINDOW_HOURS * HOUR_MS).toISOString();
  const starts = await tx.conversations.recentStarts(
    replierId,
    since,
    Math.max(limit, MAX_CONVERSATIONS),
  );
  if (starts.length < limit) return undefined;
  // The next one is possible once the limit-th newest leaves the window (or the account is no
  // longer new, with the larger limit).
  let next = Date.parse(starts[limit - 1]!) + CONVERSATION_WINDOW_HOURS * HOUR_MS;
  if (newAccount && starts.length < MAX_CONVERSATIONS) next = Math.min(next, grownUpAt);
  return { refused: 'conversation-limit', limit, newAccount, nextAt: new Date(next).toISOString() };
}

/** Whether the member may send another message now. */
export async function messageLimitReached(
  tx: Store,
  senderId: number,
  now: Date,
  limit: MessageLimit,
): Promise<MessageLimitReached | undefined> {
  const windowMs = limit.duration * 1000;
  const since = new Date(now.getTime() - windowMs).toISOString();
  const sent = await tx.conversations.recentMessages(senderId, since, limit.points);
  if (sent.length < limit.points) return undefined;
  const next = Date.parse(sent[limit.points - 1]!) + windowMs;
  return { refused: 'message-limit', limit, nextAt: new Date(next).toISOString() };
}
