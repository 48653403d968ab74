// The rules of conversations (docs/product.md section 7), on the store's conversations and blocks:
// who may start one and write in it, when it closes, when the recipient is mailed. Every write is
// one unit of work holding the writer's lock (`account:{id}`), then the conversation's, so that
// the limits, one conversation per ad and one mail per burst hold on any number of instances.
// Refusals are thrown (texts.ts); the scam shield's are answered by its unit of work and thrown
// once it has committed, so that the sender's record is kept. The whole order of a message:
// docs/architecture.md, "A message, step by step". The poster's own settings (reach.ts) apply
// to the replier: an age range, and hidden words (the Filtered folder, until the poster answers).
// A conversation is in the poster's Requests until they answer it (then their Chats): its
// messages to them are mailed in the daily digest (request-digest.ts) unless they chose each at
// once (message_settings); a chat's are mailed as they come.
import { getPolicyTerms, getSite } from '../../core/content/index.ts';
import type { ClosedReason } from '../../core/views/messages.ts';
import { findPolicyTerms, refusedTermInMessage, type ScamFamily } from '../../core/policy/index.ts';
import { checkMessageBody, type MessageBodyCheck } from '../../core/schemas/message.ts';
import { Refusal } from '../../core/refusal.ts';
import type { AdForReply, ConversationRow } from '../../store/parts/conversations.ts';
import type { Store } from '../../store/store.ts';
import { checkFirstMessageSender } from '../verification/first-messages.ts';
import { checkAgeAssurance } from '../age-assurance/gate.ts';
import {
  conversationLimitReached,
  DEFAULT_MESSAGE_LIMIT,
  messageLimitReached,
  type MessageLimit,
} from './limits.ts';
import { checkAgeRange, filtersNow, isFiltered } from './reach.ts';
import { screen, screened, type Screening } from './scam-shield.ts';
import {
  adNotFoundForReply,
  adUnavailable,
  type AdAvailability,
  conversationClosed,
  conversationNotFound,
  OWN_AD,
  tooManyConversations,
  tooManyMessages,
} from './texts.ts';

export function adAvailability(
  ad: Pick<AdForReply, 'status' | 'expiresOn' | 'hidden'>,
  today: string,
): AdAvailability {
  if (ad.status !== 'live') return ad.status;
  if (!ad.expiresOn || ad.expiresOn <= today) return 'expired';
  return ad.hidden ? 'hidden' : 'live';
}

/** Whom to tell about a new message (the address never leaves the server). */
export interface Notification {
  to: string;
  conversationId: number;
  adTitle: string;
  /** The recipient's side: the ad's poster, or the member who replied. */
  recipient: 'poster' | 'replier';
  /** Where the conversation is for the recipient: their Requests (not answered yet) or Chats. */
  folder: 'chats' | 'requests';
  /** Mail it now: a chat, or a request to a member who chose each at once (else: the digest). */
  mailNow: boolean;
}

/** A message stored, and whom to tell about it (nobody: they have not read the one before). */
export interface Sent {
  messageId: number;
  /** The scam families its recipient is warned of beside it (none: empty). */
  warned: readonly ScamFamily[];
  notify?: Notification;
}

/** A conversation started (or, for a replier who had one about the ad, written in). */
export interface Started {
  conversationId: number;
  /** False: the message went into the conversation the replier already had. */
  created: boolean;
  /** The scam families the poster is warned of beside the message (none: empty). */
  warned: readonly ScamFamily[];
  notify?: Notification;
}

/** A message the scam shield refused, after its unit of work kept the sender's record of it. */
interface Refused {
  refused: Refusal;
}

/** The unit of work's answer, or its refusal thrown now that it has committed. */
function unlessRefused<T extends object>(outcome: T | Refused): T {
  if ('refused' in outcome) throw outcome.refused;
  return outcome;
}

export interface NewMessage {
  /** The member writing. */
  senderId: number;
  /** As checkMessageBody (or checkFirstMessage) left it. */
  body: string;
  /**
   * The clock, read once the unit of work holds its locks: the times of a conversation's messages
   * run in the order of their ids.
   */
  now: () => Date;
  /** Default: MESSAGES_PER_WINDOW in MESSAGE_WINDOW_MINUTES. */
  messageLimit?: MessageLimit;
}

const otherOf = (conversation: ConversationRow, member: number) =>
  conversation.posterId === member ? conversation.replierId : conversation.posterId;

/**
 * A message from an ad's reply form, checked as every message is and then for the policy terms
 * (docs/product.md section 7): a refused term refuses it; review terms pass (messages have no
 * review queue). The ad's own city and state never count. Contact details and scam signals are
 * the scam shield's, in the unit of work (scam-shield.ts).
 */
export function checkFirstMessage(
  input: unknown,
  ad: Pick<AdForReply, 'city' | 'state'>,
): MessageBodyCheck {
  const checked = checkMessageBody(input);
  if (!checked.ok) return checked;
  const terms = findPolicyTerms(checked.body, getPolicyTerms(), [ad.city, ad.state]);
  const refused = terms.find((found) => found.kind === 'refuse');
  if (!refused) return checked;
  const word = checked.body.slice(refused.start, refused.end);
  return { ok: false, problem: refusedTermInMessage(word, getSite().brand) };
}

/** Why the member can no longer write in the conversation, if they cannot. */
export async function closedReason(
  store: Store,
  conversation: ConversationRow,
  member: number,
): Promise<ClosedReason | undefined> {
  const other = otherOf(conversation, member);
  if (other === null) return 'other-deleted';
  const between = await store.blocks.between(member, other);
  if (between.youBlocked) return 'you-blocked';
  if (between.blockedYou) return 'blocked-you';
  if ((await store.conversations.correspondent(other))?.bannedAt) return 'other-banned';
  if (conversation.adStatus === 'removed') return 'ad-removed';
  return undefined;
}

/** Starts a conversation about a member ad (or adds to the one the replier has about it). */
export async function startConversation(
  store: Store,
  adId: number,
  message: NewMessage,
): Promise<Started> {
  const { senderId: replierId } = message;
  const outcome = await store.unitOfWork(async (tx): Promise<Started | Refused> => {
    await tx.lock(`account:${replierId}`);
    const now = message.now();
    const at = now.toISOString();
    const ad = await tx.memberAds.find(adId);
    if (!ad) throw adNotFoundForReply();
    if (ad.accountId === replierId) throw new Refusal('forbidden', OWN_AD);
    const availability = adAvailability(ad, at.slice(0, 10));
    if (availability !== 'live') throw adUnavailable(availability, ad.expiresOn);
    const between = await tx.blocks.between(replierId, ad.accountId);
    if (between.youBlocked) throw conversationClosed('you-blocked', true);
    if (between.blockedYou) throw conversationClosed('blocked-you', true);
    const existing = await tx.conversations.existingFor(adId, replierId);
    if (existing !== undefined) return addToExisting(tx, existing);
    const replier = await tx.conversations.correspondent(replierId);
    if (!replier || replier.bannedAt) throw adNotFoundForReply();
    const reach = await tx.reachSettings.of(ad.accountId);
    checkAgeRange(reach, replier.dateOfBirth, now);
    // "Only verified members can start a conversation with me" (docs/product.md section 7).
    await checkFirstMessageSender(tx, replierId, ad.accountId, 'poster');
    // Where a state's law asks for it (docs/product.md section 6, "Age assurance").
    await checkAgeAssurance(tx, replierId, ad.state, 'first-message');
    const tooManyStarted = await conversationLimitReached(tx, replierId, replier.createdAt, now);
    if (tooManyStarted) throw tooManyConversations(tooManyStarted, now);
    const limit = message.messageLimit ?? DEFAULT_MESSAGE_LIMIT;
    const tooManySent = await messageLimitReached(tx, replierId, now, limit);
    if (tooManySent) throw tooManyMessages(tooManySent, now);
    const screening: Screening = {
      senderId: replierId,
      recipientId: ad.accountId,
      fromPoster: false,
      text: message.body,
      places: [ad.city, ad.state],
      now,
    };
    const passed = await screen(tx, screening);
    if (passed.refusal) return { refused: passed.refusal };
    const filtered = isFiltered(reach, message.body);
    const conversationId = await tx.conversations.create({
      adId,
      adTitle: ad.title,
      posterId: ad.accountId,
      replierId,
      at,
      filtered,
    });
    // Only a start that did not hold the replier's lock could have made it meanwhile; the unique
    // index had the last word, and the message goes into that one.
    if (conversationId === undefined) {
      const made = await tx.conversations.existingFor(adId, replierId);
      if (made === undefined) throw new Error(`conversation of ad ${adId} neither made nor found`);
      return addToExisting(tx, made);
    }
    await tx.conversations.addMessage(
      conversationId,
      replierId,
      message.body,
      at,
      passed.screening,
    );
    await screened(tx, screening, passed);
    // Filtered: the poster finds it in their Filtered folder, unannounced. Else a request.
    const poster = filtered ? undefined : await tx.conversations.correspondent(ad.accountId);
    const notify: Notification | undefined = poster && {
      to: poster.email,
      conversationId,
      adTitle: ad.title,
      recipient: 'poster',
      folder: 'requests',
      mailNow: (await tx.messageSettings.of(ad.accountId)).requestsAtOnce,
    };
    return {
      conversationId,
      created: true,
      warned: passed.warnings,
      ...(notify ? { notify } : {}),
    };
  });
  return unlessRefused(outcome);

  async function addToExisting(tx: Store, conversationId: number): Promise<Started | Refused> {
    const conversation = await tx.conversations.find(conversationId, replierId);
    if (!conversation) throw adNotFoundForReply();
    const sent = await addMessage(tx, conversation, message, true);
    if ('refused' in sent) return sent;
    const { notify, warned } = sent;
    return { conversationId, created: false, warned, ...(notify ? { notify } : {}) };
  }
}

/** A message in one of the member's conversations. */
export async function reply(
  store: Store,
  conversationId: number,
  message: NewMessage,
): Promise<Sent> {
  const outcome = await store.unitOfWork(async (tx): Promise<Sent | Refused> => {
    await tx.lock(`account:${message.senderId}`);
    const conversation = await tx.conversations.find(conversationId, message.senderId);
    if (!conversation) throw conversationNotFound();
    return addMessage(tx, conversation, message);
  });
  return unlessRefused(outcome);
}

/**
 * Stores a message in a conversation the sender may write in; in a unit of work holding the
 * sender's lock. It takes the conversation's too, so that messages from both sides are stored one
 * at a time: ids and times in the same order. `starting`: from the ad's reply form.
 */
async function addMessage(
  tx: Store,
  conversation: ConversationRow,
  { senderId, body, messageLimit = DEFAULT_MESSAGE_LIMIT, ...message }: NewMessage,
  starting = false,
): Promise<Sent | Refused> {
  // Always after the account's lock (never the other way round): no two units wait on each other.
  await tx.lock(`conversation:${conversation.id}`);
  const now = message.now();
  const closed = await closedReason(tx, conversation, senderId);
  if (closed) throw conversationClosed(closed, starting);
  const tooMany = await messageLimitReached(tx, senderId, now, messageLimit);
  if (tooMany) throw tooManyMessages(tooMany, now);
  const recipientId = otherOf(conversation, senderId)!;
  const screening: Screening = {
    senderId,
    recipientId,
    fromPoster: senderId === conversation.posterId,
    conversationId: conversation.id,
    text: body,
    places: [conversation.adCity, conversation.adState],
    now,
  };
  const passed = await screen(tx, screening);
  if (passed.refusal) return { refused: passed.refusal };
  // A replier's first message with a hidden word sends it to the poster's Filtered folder;
  // answering moves it to their inbox. Until then, no mail.
  const filteredNow = await filtersNow(tx, conversation, senderId, body);
  if (filteredNow) await tx.conversations.filter(conversation.id, now.toISOString());
  const filtered = filteredNow || conversation.filteredAt !== null;
  if (filtered && senderId === conversation.posterId)
    await tx.conversations.unfilter(conversation.id);
  const firstUnread =
    !(filtered && recipientId === conversation.posterId) &&
    !(await tx.conversations.hasUnreadFrom(conversation.id, senderId));
  const messageId = await tx.conversations.addMessage(
    conversation.id,
    senderId,
    body,
    now.toISOString(),
    passed.screening,
  );
  await screened(tx, screening, passed);
  const recipient = firstUnread ? await tx.conversations.correspondent(recipientId) : undefined;
  // Still the poster's request: they have not answered it (the replier writing again does not).
  const request = recipientId === conversation.posterId && conversation.answeredAt === null;
  const notify: Notification | undefined = recipient && {
    to: recipient.email,
    conversationId: conversation.id,
    adTitle: conversation.adTitle,
    recipient: recipientId === conversation.posterId ? 'poster' : 'replier',
    folder: request ? 'requests' : 'chats',
    mailNow: !request || (await tx.messageSettings.of(recipientId)).requestsAtOnce,
  };
  return { messageId, warned: passed.warnings, ...(notify ? { notify } : {}) };
}

/** Blocks (or unblocks) the other side of one of the member's conversations. */
export async function setBlock(
  store: Store,
  conversationId: number,
  member: number,
  block: boolean,
  now: Date,
): Promise<void> {
  const conversation = await store.conversations.find(conversationId, member);
  if (!conversation) throw conversationNotFound();
  const other = otherOf(conversation, member);
  if (other === null) throw conversationClosed('other-deleted');
  if (block) await store.blocks.block(member, other, now.toISOString());
  else await store.blocks.unblock(member, other);
}
