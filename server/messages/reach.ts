// Who may reach a member (docs/product.md section 7, "Who may reach me"): the member's own settings,
// enforced on the first message of a conversation about their ad, in the unit of work that
// stores it (conversations.ts):
// - an age range: a member writing first whose age (from the date of birth they signed up with)
//   is outside it is told, in words, the ages this member accepts first messages from, and
//   nothing is stored; nothing else of the member's settings is ever said;
// - hidden words: a first message with one (found as core/policy/hidden-words.ts finds them) is
//   stored, but its conversation goes to the member's Filtered folder, never the inbox, and no
//   mail goes out; the sender sees it as sent. The replier's messages are first messages until
//   the member answers (as the scam shield counts them): one with a hidden word sends the
//   conversation there too. Answering it moves it to the inbox;
// - only verified members: a member who is not verified writing first is refused
//   (server/verification/first-messages.ts holds that rule; the setting is saved with these).
import { ageOn } from '../../core/schemas/age.ts';
import { findHiddenWord } from '../../core/policy/hidden-words.ts';
import {
  REACH_AGE_MAX,
  REACH_AGE_MIN,
  type ReachSettingsInput,
} from '../../core/schemas/reach-settings.ts';
import type { ReachSettingsView } from '../../core/views/reach-settings.ts';
import { Refusal } from '../../core/refusal.ts';
import type { ConversationRow } from '../../store/parts/conversations.ts';
import type { ReachSettings } from '../../store/parts/reach-settings.ts';
import type { Store } from '../../store/store.ts';

/** What a member writing first, outside the ages the poster accepts, reads. */
export const outsideAgeRange = ({ minAge, maxAge }: Pick<ReachSettings, 'minAge' | 'maxAge'>) =>
  `This member accepts first messages from ages ${minAge ?? REACH_AGE_MIN}–${maxAge ?? REACH_AGE_MAX}, so your message was not sent. You can reply to other members' ads.`;

/** Refuses a first message from a member outside the recipient's age range (nothing is stored). */
export function checkAgeRange(settings: ReachSettings, dateOfBirth: string, now: Date): void {
  const { minAge, maxAge } = settings;
  if (minAge === null && maxAge === null) return;
  const age = ageOn(dateOfBirth, now.toISOString().slice(0, 10));
  if ((minAge !== null && age < minAge) || (maxAge !== null && age > maxAge))
    throw new Refusal('forbidden', outsideAgeRange(settings));
}

/** Whether a first message goes to the recipient's Filtered folder: it has a hidden word. */
export const isFiltered = (settings: ReachSettings, text: string): boolean =>
  findHiddenWord(text, settings.hiddenWords) !== undefined;

/**
 * Whether a replier's message sends their conversation to the poster's Filtered folder now: it is
 * not there yet, the poster has not answered (it is still a first message), and it has one of the
 * poster's hidden words. In the message's unit of work.
 */
export async function filtersNow(
  tx: Store,
  conversation: ConversationRow,
  senderId: number,
  text: string,
): Promise<boolean> {
  const { filteredAt, posterId, replierId } = conversation;
  if (filteredAt !== null || senderId !== replierId || posterId === null) return false;
  if (!isFiltered(await tx.reachSettings.of(posterId), text)) return false;
  return !(await tx.conversations.answered(conversation.id, senderId));
}

/** Saves the member's settings, as the account page's form (or JSON) gave them, all at once. */
export async function saveReachSettings(
  store: Store,
  accountId: number,
  { verifiedOnly, ...settings }: ReachSettingsInput,
  now: Date,
): Promise<void> {
  await store.unitOfWork(async (tx) => {
    await tx.reachSettings.save(accountId, settings, now.toISOString());
    await tx.verifications.setVerifiedFirstOnly(accountId, verifiedOnly);
  });
}

/** The settings as the account page's form shows them. */
export const reachSettingsView = (
  { minAge, maxAge, hiddenWords }: ReachSettings,
  verifiedOnly: boolean,
): ReachSettingsView => ({
  minAge: minAge === null ? '' : String(minAge),
  maxAge: maxAge === null ? '' : String(maxAge),
  hiddenWords: hiddenWords.join('\n'),
  verifiedOnly,
});
