// What the message pages show one member (core/views/messages.ts), read from the store: the
// inbox, a page of a conversation, and what `/messages/new?ad=…` is about. Never the other side's
// address: they are "the poster" or "the member who replied" (docs/product.md section 7). The scam
// shield's warnings beside a message are its recipient's only, in words (scam-shield.ts).
import { findPublishedAd } from '../../core/content/ad-by-id.ts';
import {
  type ClosedReason,
  CONVERSATION_NOTICES,
  INBOX_SHOWN,
  type ConversationView,
  type InboxEntry,
  type InboxFolder,
  type InboxView,
  type NewMessageTarget,
  type OtherSide,
} from '../../core/views/messages.ts';
import { adPath } from '../../core/paths.ts';
import { SCAM_WARNINGS, type ScamFamily } from '../../core/policy/index.ts';
import type { CompiledAd } from '../../core/schemas/compiled-content.ts';
import { memberAdAsCompiled } from '../posting/ad-view.ts';
import type { AdForReply, ConversationRow, ThreadPage } from '../../store/parts/conversations.ts';
import type { InboxRow } from '../../store/parts/conversation-inbox.ts';
import type { Store } from '../../store/store.ts';
import { adAvailability, closedReason } from './conversations.ts';
import { readReceipt } from './message-settings.ts';
import { unavailableText } from './texts.ts';

export async function inboxView(
  store: Store,
  member: number,
  folder: InboxFolder = 'chats',
): Promise<InboxView> {
  const rows = await store.conversations.inbox(member, INBOX_SHOWN, folder);
  const noticed = new Map(
    (await store.fraudNotices.noticedConversations(member)).map((row) => [
      row.conversationId,
      row.action,
    ]),
  );
  const entries = rows.map((row) => ({
    conversationId: row.conversationId,
    adTitle: row.adTitle,
    other: otherSide(row, member),
    lastMessageAt: row.lastMessageAt,
    unread: row.unread,
    youBlocked: row.youBlocked,
    ...(noticed.has(row.conversationId) ? { fraudNotice: noticed.get(row.conversationId)! } : {}),
    ...departedOf(row, member),
  }));
  return {
    kind: 'inbox',
    folder,
    requestsCount: await store.conversations.inboxCount(member, 'requests'),
    filteredCount: await store.conversations.inboxCount(member, 'filtered'),
    fresh: await newIn(store, member),
    entries,
    total:
      entries.length < INBOX_SHOWN
        ? entries.length
        : await store.conversations.inboxCount(member, folder),
    unread: await store.conversations.unreadTotal(member, folder),
  };
}

/** Whether the other side of a listed conversation has left: deleted their account, or banned. */
function departedOf(row: InboxRow, member: number): Pick<InboxEntry, 'departed'> {
  if (otherSide(row, member) === 'deleted')
    return { departed: { why: 'deleted', ...(row.keptUntil ? { keptUntil: row.keptUntil } : {}) } };
  return row.otherBanned ? { departed: { why: 'banned' } } : {};
}

/** What is new in the member's Chats and Requests (the page says it in words). */
async function newIn(store: Store, member: number) {
  const { chats, requests } = await store.conversations.newConversations(member);
  return { chats, requests };
}

/** A page of one of the member's conversations; `done` names the action just done (`?done=…`). */
export async function conversationView(
  store: Store,
  conversation: ConversationRow,
  member: number,
  thread: ThreadPage,
  { done, today }: { done: string | undefined; today: string },
): Promise<ConversationView> {
  const other = conversation.posterId === member ? conversation.replierId : conversation.posterId;
  const live =
    conversation.adStatus === 'live' &&
    !conversation.adHidden &&
    conversation.adExpiresOn !== null &&
    conversation.adExpiresOn > today &&
    conversation.adState !== null &&
    conversation.adCity !== null;
  const closed = await closedReason(store, conversation, member);
  const youBlocked = other !== null && (await store.blocks.between(member, other)).youBlocked;
  const [fraudNotice] = await store.fraudNotices.noticedConversations(member, conversation.id);
  const readFor = await readReceipt(store, conversation, member, other);
  return {
    kind: 'conversation',
    conversationId: conversation.id,
    adTitle: conversation.adTitle,
    ...(live
      ? { adHref: adPath(conversation.adState!, conversation.adCity!, conversation.adId!) }
      : {}),
    yourAd: conversation.posterId === member,
    other: otherSide(conversation, member),
    ...(other !== null && (await otherVerification(store, other))),
    // The other side by the member's own (theirs may be gone: a deleted account's id is null).
    messages: thread.messages.map((message) => ({
      id: message.id,
      from:
        message.senderId === member
          ? 'you'
          : conversation.posterId === member
            ? 'replier'
            : 'poster',
      body: message.body,
      sentAt: message.sentAt,
      ...(message.senderId !== member ? scamWarningsOf(message.scamWarnings) : {}),
    })),
    page: {
      first: thread.older + Math.min(1, thread.messages.length),
      last: thread.older + thread.messages.length,
      total: thread.total,
      ...(thread.older > 0 ? { olderBefore: thread.messages[0]!.id } : {}),
      ...(thread.newer !== undefined ? { newerBefore: thread.newer } : {}),
    },
    ...(closed ? { closed } : {}),
    youBlocked,
    ...(conversation.filteredAt !== null && conversation.posterId === member
      ? { filtered: true }
      : {}),
    ...(fraudNotice ? { fraudNotice: fraudNotice.action } : {}),
    ...(done && done in CONVERSATION_NOTICES
      ? { notice: CONVERSATION_NOTICES[done as keyof typeof CONVERSATION_NOTICES] }
      : {}),
    ...(await departed(store, conversation, closed)),
    ...(readFor !== undefined ? { readReceiptFor: readFor } : {}),
    // A request, while its writer is still a member (once they left, "This member has left" says it).
    ...(conversation.posterId === member &&
    conversation.answeredAt === null &&
    conversation.filteredAt === null &&
    closed !== 'other-deleted' &&
    closed !== 'other-banned'
      ? { request: true }
      : {}),
  };
}

/** Whether the other side has left, and until when their messages are kept for the member. */
async function departed(
  store: Store,
  conversation: ConversationRow,
  closed: ClosedReason | undefined,
): Promise<Pick<ConversationView, 'departed'>> {
  if (closed === 'other-banned') return { departed: { why: 'banned' } };
  if (closed !== 'other-deleted') return {};
  const keptUntil = await store.conversations.keptUntil(conversation.id);
  return { departed: { why: 'deleted', ...(keptUntil ? { keptUntil } : {}) } };
}

/** What `/messages/new?ad=…` is about, for this member (`adId` undefined: not an id at all). */
export async function newMessageTarget(
  store: Store,
  adId: number | undefined,
  member: number,
  today: string,
): Promise<NewMessageTarget> {
  if (adId === undefined) return { kind: 'not-found' };
  const ad = await store.memberAds.find(adId);
  if (!ad) {
    const published = findPublishedAd(adId);
    return published ? { kind: 'not-member-ad', ad: published } : { kind: 'not-found' };
  }
  if (ad.accountId === member) return { kind: 'own-ad', ad: shownAd(ad, today) };
  const availability = adAvailability(ad, today);
  if (availability !== 'live') {
    const why = unavailableText(availability, ad.expiresOn);
    return why ? { kind: 'unavailable', title: ad.title, why } : { kind: 'not-found' };
  }
  const between = await store.blocks.between(member, ad.accountId);
  if (between.youBlocked || between.blockedYou)
    return { kind: 'blocked', ad: shownAd(ad, today), by: between.youBlocked ? 'you' : 'them' };
  return { kind: 'member-ad', ad: shownAd(ad, today) };
}

/** The warnings a message's recipient reads beside it, in words (families no longer known: none). */
function scamWarningsOf(families: readonly string[]): { scamWarnings?: string[] } {
  const known = families.filter((family): family is ScamFamily => family in SCAM_WARNINGS);
  return known.length > 0 ? { scamWarnings: known.map((family) => SCAM_WARNINGS[family]) } : {};
}

function shownAd(ad: AdForReply, today: string): CompiledAd {
  return memberAdAsCompiled(ad, {
    postedAt: ad.postedOn ?? today,
    expiresAt: ad.expiresOn ?? today,
  });
}

function otherSide(
  row: Pick<ConversationRow, 'posterId' | 'replierId'>,
  member: number,
): OtherSide {
  if (row.posterId === member) return row.replierId === null ? 'deleted' : 'replier';
  return row.posterId === null ? 'deleted' : 'poster';
}

/** The other side's verification level, as the conversation names it (docs/product.md section 6). */
async function otherVerification(store: Store, accountId: number) {
  const level = (await store.verifications.currentFor([accountId])).get(accountId)?.level;
  return level ? { otherVerified: level } : {};
}
