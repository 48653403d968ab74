// What members read when messaging refuses them (docs/product.md section 7), and the kind of each
// refusal (core/refusal.ts): the one place these sentences are written. The closed
// conversations' sentences are the pages' (core/views/messages.ts CLOSED_TEXTS), shown on the
// conversation and in refusals.
import { formatDate } from '../../core/format.ts';
import { CLOSED_TEXTS, type ClosedReason } from '../../core/views/messages.ts';
import { CONVERSATION_WINDOW_HOURS } from '../../core/schemas/message.ts';
import { Refusal } from '../../core/refusal.ts';
import type { ConversationLimitReached, MessageLimitReached } from './limits.ts';

/** Whether a member ad takes new conversations today, and if not, why. */
export type AdAvailability =
  'live' | 'review' | 'rejected' | 'removed' | 'deleted' | 'expired' | 'hidden';

export const NOT_VERIFIED_TO_WRITE =
  'Verify your email address before writing to members: open the link we emailed you, or ask for a new one on your account page.';
export const CONVERSATION_NOT_FOUND = "We couldn't find that conversation.";
export const AD_NOT_FOUND_FOR_REPLY =
  "We couldn't find that ad. It may have expired or been removed.";
export const OWN_AD =
  'This is your own ad: members reply to it, and their messages appear in your Messages.';
export const NOT_A_MEMBER_AD =
  "This is a sample or editor's listing, not a member's ad: there is nobody to write to, and nothing would be delivered.";
export const YOU_BLOCKED_THE_POSTER =
  'You blocked the poster of this ad. Unblock them from your conversation with them to write again.';

/** Why a member ad takes no new conversations, in a sentence; undefined when it is not public. */
export function unavailableText(
  availability: AdAvailability,
  expiresOn: string | null,
): string | undefined {
  switch (availability) {
    case 'removed':
      return 'A moderator removed this ad, so it takes no replies.';
    case 'deleted':
      return 'The poster deleted this ad, so it takes no new replies.';
    case 'expired':
      return `This ad expired${expiresOn ? ` on ${formatDate(expiresOn)}` : ''}, so it takes no new replies.`;
    case 'hidden':
      return 'This ad is off the site while moderators look into reports about it, so it takes no new replies for now.';
    default:
      // In review or rejected: never on the site, so answered as an unknown ad.
      return undefined;
  }
}

/** Seconds from `now` until `at` (an ISO time), at least 1: `Retry-After`. */
const secondsUntil = (at: string, now: Date) =>
  Math.max(1, Math.ceil((Date.parse(at) - now.getTime()) / 1000));

/** The ad a start names is not one that takes replies (unknown, in review, rejected). */
export const adNotFoundForReply = () => new Refusal('not-found', AD_NOT_FOUND_FOR_REPLY);

/** The conversation is not one of the member's (or does not exist: the two are never told apart). */
export const conversationNotFound = () => new Refusal('not-found', CONVERSATION_NOT_FOUND);

/** A member ad that takes no new conversations: why, or not found when it never was public. */
export function adUnavailable(
  availability: Exclude<AdAvailability, 'live'>,
  expiresOn: string | null,
): Refusal {
  const why = unavailableText(availability, expiresOn);
  return why ? new Refusal('gone', why) : adNotFoundForReply();
}

/**
 * Why the member can no longer write in the conversation; `starting`: writing from an ad's reply
 * form, where a block of the member's own is about the poster.
 */
export function conversationClosed(reason: ClosedReason, starting = false): Refusal {
  switch (reason) {
    case 'you-blocked':
      return new Refusal('forbidden', starting ? YOU_BLOCKED_THE_POSTER : CLOSED_TEXTS[reason]);
    case 'blocked-you':
      return new Refusal('forbidden', CLOSED_TEXTS[reason]);
    default:
      return new Refusal('conflict', CLOSED_TEXTS[reason]);
  }
}

export function tooManyConversations(reached: ConversationLimitReached, now: Date): Refusal {
  const { limit, nextAt, newAccount } = reached;
  const when = `${nextAt.slice(0, 16).replace('T', ' ')} UTC`;
  const message = newAccount
    ? `New accounts can start ${limit} conversations a day, and you have started ${limit} in the last ${CONVERSATION_WINDOW_HOURS} hours. You can start another from ${when}.`
    : `You have started ${limit} conversations in the last ${CONVERSATION_WINDOW_HOURS} hours, the most anyone can. You can start another from ${when}.`;
  return new Refusal('too-many', message, { retryAfter: secondsUntil(nextAt, now) });
}

export function tooManyMessages({ limit, nextAt }: MessageLimitReached, now: Date): Refusal {
  const wait = secondsUntil(nextAt, now);
  const minutes = Math.ceil(wait / 60);
  return new Refusal(
    'too-many',
    `You have sent ${limit.points} messages in the last ${Math.round(limit.duration / 60)} minutes, the most anyone can. You can send again in ${minutes === 1 ? 'a minute' : `${minutes} minutes`}.`,
    { retryAfter: wait },
  );
}
