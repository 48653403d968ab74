// "Only verified members can start a conversation with me" (docs/product.md section 7): the rule
// the server holds a first message to (the member's setting is saved with "Who may reach me",
// server/messages/reach.ts). A sender who is not
// verified is told, in words, that this member accepts first messages only from verified members
// and how to get verified; nothing is stored. A verified sender's message goes on as any other.
import { verificationPath } from '../../core/paths.ts';
import { Refusal } from '../../core/refusal.ts';
import type { Store } from '../../store/store.ts';

export const verifiedOnlyRefusal = (recipient: 'poster' | 'member') =>
  `This ${recipient === 'poster' ? 'poster' : 'member'} accepts first messages only from verified members. To write to them, get verified: ask for a code on ${verificationPath()}, send a selfie holding it, and a moderator checks it (usually within a day). Your message was not sent.`;

/** Whether the account is verified now (an approved verification not withdrawn). */
export async function isVerified(store: Store, accountId: number): Promise<boolean> {
  return (await store.verifications.currentFor([accountId])).has(accountId);
}

/**
 * Refuses (throws) a first message to `recipientId` from `senderId` when the recipient accepts
 * first messages only from verified members and the sender is not one.
 */
export async function checkFirstMessageSender(
  store: Store,
  senderId: number,
  recipientId: number,
  recipient: 'poster' | 'member',
): Promise<void> {
  if (!(await store.verifications.verifiedFirstOnly(recipientId))) return;
  if (await isVerified(store, senderId)) return;
  throw new Refusal('forbidden', verifiedOnlyRefusal(recipient), { field: 'body' });
}
