// What the server hands the message pages (/messages, /messages/{id}, /messages/new?ad=…) in their
// request: read from the store by server/messages/views.ts (for the pages' server reads,
// server/http/page-reads/), shown by src/pages/messages/, src/pages/conversation/ and
// src/pages/messages-new/, with the sentences both say (CLOSED_TEXTS). In the kernel: the server
// builds it, the pages show it, neither imports the other.
// Nothing here ever holds another member's email address (docs/product.md section 7): the other side
// is named by their role in the conversation.
import { formatDate, formatNumber, plural } from '../format.ts';
import { conversationPath } from '../paths.ts';
import type { FraudNoticeAction } from './fraud-notice.ts';
import type { CompiledAd } from '../schemas/compiled-content.ts';
import type { VerificationLevel } from '../schemas/verification.ts';

/** Who the other side of a conversation is, as the member sees them. */
export type OtherSide = 'poster' | 'replier' | 'deleted';

/** Why a conversation takes no more messages, if it does not. */
export type ClosedReason =
  'you-blocked' | 'blocked-you' | 'other-deleted' | 'other-banned' | 'ad-removed';

export interface InboxEntry {
  conversationId: number;
  adTitle: string;
  /** `poster`: the member wrote to the poster of someone else's ad; `replier`: about their own. */
  other: OtherSide;
  /** ISO time of the newest message. */
  lastMessageAt: string;
  /** The other side's messages not yet opened. */
  unread: number;
  /** The member blocked the other side. */
  youBlocked: boolean;
  /** The other side was banned (or had an ad removed) for scam or fraud after the member answered. */
  fraudNotice?: FraudNoticeAction;
  /**
   * The other side has left (deleted their account, or was banned): said in the list in the
   * conversation's words (departedText). A request of theirs stays in Requests, but is not new.
   */
  departed?: Departure;
}

/**
 * Which of the member's folders (docs/product.md section 7): Chats (the conversations they
 * started, and those about their ads they answered), Requests (first messages about their ads
 * they have not answered), or Filtered (those started with one of their hidden words: "Who may
 * reach me").
 */
export type InboxFolder = 'chats' | 'requests' | 'filtered';

/** Conversations with a message the member has not opened, in Chats and in Requests. */
export interface NewConversationCounts {
  chats: number;
  requests: number;
}

export interface InboxView {
  kind: 'inbox';
  folder: InboxFolder;
  /** How many conversations are in the member's Requests and Filtered folders (their links say). */
  requestsCount: number;
  filteredCount: number;
  /** What is new in Chats and Requests (the page's first line, and the header's count). */
  fresh: NewConversationCounts;
  /** Newest activity first, at most INBOX_SHOWN. */
  entries: InboxEntry[];
  /** All the conversations in the folder (more than shown when over INBOX_SHOWN). */
  total: number;
  /** Unread messages in all of them. */
  unread: number;
}

/**
 * The other side has left (docs/product.md section 7): deleted their account (their messages kept
 * for the member until `keptUntil`, an ISO time; absent when none are left) or was banned.
 */
export interface Departure {
  why: 'deleted' | 'banned';
  keptUntil?: string;
}

/** Said wherever the other side has left: the conversation's heading, the inbox's line. */
export const DEPARTED_TITLE = 'This member has left';

/** Why they left and what became of their messages, the same words on the conversation and in the list. */
export function departedText({ why, keptUntil }: Departure): string {
  if (why === 'banned')
    return 'Our moderators closed their account. They can no longer write to you, and their messages stay here.';
  return keptUntil
    ? `They deleted their account. Their messages stay here for you until ${formatDate(keptUntil.slice(0, 10))}, so that you can report them if you need to; then they are deleted.`
    : 'They deleted their account, and their messages are deleted.';
}

/**
 * What is new, in words, as the header and /messages say it: "2 new: 1 chat, 1 request", "1 new
 * chat", "3 new requests"; undefined when nothing is.
 */
export function newConversationsText({ chats, requests }: NewConversationCounts) {
  if (chats > 0 && requests > 0)
    return `${formatNumber(chats + requests)} new: ${plural(chats, 'chat')}, ${plural(requests, 'request')}`;
  if (chats > 0) return `${plural(chats, 'new chat')}`;
  if (requests > 0) return `${plural(requests, 'new request')}`;
  return undefined;
}

export interface ThreadMessage {
  id: number;
  /** `you`, or the other side's role. */
  from: 'you' | 'poster' | 'replier';
  body: string;
  /** ISO time. */
  sentAt: string;
  /**
   * What the scam shield warns the recipient of beside this message, in words, one a family;
   * absent for none, and always for the member's own messages (the sender never sees them).
   */
  scamWarnings?: string[];
}

export interface ConversationView {
  kind: 'conversation';
  conversationId: number;
  adTitle: string;
  /** The ad's page while it is live on the site; absent once it is not. */
  adHref?: string;
  /** The member's own ad (they are the poster). */
  yourAd: boolean;
  other: OtherSide;
  /** The other side's verification level (docs/product.md section 6); absent: not verified. */
  otherVerified?: VerificationLevel;
  /** The page's messages, in id order, oldest first. */
  messages: ThreadMessage[];
  /** Which page of the conversation this is (CONVERSATION_PAGE_SIZE messages a page). */
  page: ConversationPage;
  /** Absent while both can write. */
  closed?: ClosedReason;
  /** The member blocked the other side (Unblock is offered). */
  youBlocked: boolean;
  /** The poster's: it is in their Filtered folder (a hidden word) until they answer it. */
  filtered?: boolean;
  /**
   * The other side was banned (or had an ad removed) for scam or fraud, and the member had answered
   * them here: the notice (core/views/fraud-notice.ts).
   */
  fraudNotice?: FraudNoticeAction;
  /** What the last action did, after its redirect (`?done=…`). */
  notice?: string;
  /**
   * The other side has left (docs/product.md section 7): deleted their account (their messages
   * kept for the member until `keptUntil`, an ISO time; absent when none are left) or was banned.
   */
  departed?: Departure;
  /**
   * The member's newest message, once the other side read it, when both turned read receipts on:
   * its id ("Read" is shown under it).
   */
  readReceiptFor?: number;
  /** The conversation is in the member's Requests: they have not answered it yet. */
  request?: boolean;
}

/**
 * Where a page of a conversation sits in it. Pages are named by the message they come before
 * (`?before={message id}`), not counted from the newest: new messages arrive at the newest end,
 * and a page counted from there would shift under someone reading back (a message shown twice,
 * or never); the messages before a given one stay the same however many arrive.
 */
export interface ConversationPage {
  /** Position of the page's first and last message in the conversation (1 is the oldest). */
  first: number;
  last: number;
  total: number;
  /** `before` of the next older page; absent on the oldest. */
  olderBefore?: number;
  /** `before` of the next newer page, or `newest` (no `before`); absent on the newest page. */
  newerBefore?: number | 'newest';
}

/** A `before` that names no page of a conversation: malformed (400), or nothing before it (404). */
export interface ConversationPageMissingView {
  kind: 'conversation-page-missing';
  conversationId: number;
  adTitle: string;
  problem: 'malformed' | 'nothing-before';
}

/** The conversation asked for is not one of the member's (or does not exist): one answer for both. */
export interface ConversationNotFoundView {
  kind: 'conversation-not-found';
}

/** What `/messages/new?ad={id}` is about. */
export type NewMessageTarget =
  /** A live member ad: the form. */
  | { kind: 'member-ad'; ad: CompiledAd }
  /** A published sample or editor's ad: nobody to write to, nothing delivered. */
  | { kind: 'not-member-ad'; ad: CompiledAd }
  /** The member's own ad. */
  | { kind: 'own-ad'; ad: CompiledAd }
  /** A block between the member and the ad's poster, either way. */
  | { kind: 'blocked'; ad: CompiledAd; by: 'you' | 'them' }
  /** A member ad that takes no new conversations: why, in a sentence. */
  | { kind: 'unavailable'; title: string; why: string }
  | { kind: 'not-found' };

export interface NewMessageView {
  kind: 'new';
  target: NewMessageTarget;
}

/** What /messages/{id} shows: a page of the conversation, or why there is none. */
export type ConversationPageView =
  ConversationView | ConversationPageMissingView | ConversationNotFoundView;

/** Messages on one page of a conversation; the newest page comes first. */
export const CONVERSATION_PAGE_SIZE = 50;

/** The URL of a page of a conversation: the newest without `before`. */
export const conversationPagePath = (conversationId: number, before?: number | 'newest') =>
  before === undefined || before === 'newest'
    ? conversationPath(conversationId)
    : `${conversationPath(conversationId)}?before=${before}`;

/** Conversations listed in the inbox at once, newest activity first. */
export const INBOX_SHOWN = 200;

/** Why a conversation is closed, as its page and a refused message say it. */
export const CLOSED_TEXTS: Record<ClosedReason, string> = {
  'you-blocked':
    'You blocked this member, so neither of you can write to the other, and they cannot reply to your ads. Unblock them to write again.',
  'blocked-you':
    'This member has blocked you: you can no longer write to them or reply to their ads.',
  'other-deleted': 'The other member deleted their account, so this conversation is closed.',
  'other-banned':
    "The other member's account was closed by our moderators, so this conversation is closed.",
  'ad-removed':
    'A moderator removed the ad this conversation is about, so the conversation is closed.',
};

/** What a conversation's page says after an action (`?done=…`). */
export const CONVERSATION_NOTICES = {
  started:
    'Your message is sent. It waits in the poster’s Requests until they answer, and they get a mail saying there is a message for them, without its text and without your email address.',
  blocked:
    'You blocked this member. Neither of you can write in this conversation, and they cannot reply to your ads. You can unblock them here at any time.',
  unblocked: 'You unblocked this member. You can write to each other again.',
} as const;
