// The scam shield on messages (docs/product.md section 7): what a message
// gets from the scam scanner (core/policy/scam-message.ts), and what is counted for its sender.
//
// - A sender's messages in a conversation are "first" messages until the other side has written
//   to them after the first of them (`answered`, read in the unit of work that stores the message,
//   which holds the sender's and the conversation's locks). It holds for both sides: the poster's
//   first reply is unanswered too until the member who wrote back answers.
// - A first message with contact details is refused (the policy scanner's rule, as before). Every
//   other first message gets the shield's decision (core/shield/decision.ts): the learned model's
//   probability, the editors' signals and the sender's behaviour (account age, verified or not,
//   first messages in the last hour, the same text to others, earlier refusals and warnings, a
//   photo also on another member's ad) make
//   it refused (the sender reads the part refused and can rephrase), warned or delivered; each
//   refusal and warning is kept 30 days for the moderators' review (store.shieldDecisions). A message
//   the recipient has answered goes through the signals alone (judgeMessage): warnings only. A
//   refusal stores nothing; a warning is stored with the message, and its recipient reads it.
// - The same first message (its print) from a member who replied to ads to more than
//   REPEAT_RECIPIENTS different members in REPEAT_WINDOW_HOURS is refused (a poster answering
//   every reply alike is not: `fromPoster`); the same one from FLAG_AFTER_NEW_ACCOUNTS accounts created in
//   the last NEW_ACCOUNT_DAYS, within REPEAT_WINDOW_HOURS, flags them for the moderators. The flag
//   is decided holding the print's lock (`message-print:{digest}`, after the account's and the
//   conversation's), so that senders on several instances are counted together.
// - Every refusal and warning of the scan counts on the sender's record, refusals too although
//   their message is not stored: the unit of work records it and answers the refusal, which is
//   thrown once it has committed (screen's caller, conversations.ts).
import { createHash } from 'node:crypto';
import { getScamSignals, getSite } from '../../core/content/index.ts';
import { DAY_MS } from '../../core/days.ts';
import {
  contactDetailsInMessage,
  findContactDetails,
  judgeMessage,
  messagePrint,
  firstMessageRefusal,
  type ScamFamily,
} from '../../core/policy/index.ts';
import { Refusal } from '../../core/refusal.ts';
import type { SenderBehaviour } from '../../core/shield/decision.ts';
import { judgeFirstMessage } from '../../core/shield/first-message.ts';
import { isVerified } from '../verification/first-messages.ts';
import { shieldModel } from './shield-model.ts';
import type { MessageScreening } from '../../store/parts/conversation-messages.ts';
import type { Store } from '../../store/store.ts';

/** Different members one account may send the same first message to in the window. */
export const REPEAT_RECIPIENTS = 3;
export const REPEAT_WINDOW_HOURS = 24;
/** New accounts sending the same first message in the window that flag them. */
export const FLAG_AFTER_NEW_ACCOUNTS = 3;
/** An account is new for this many days after it was made. */
export const NEW_ACCOUNT_DAYS = 7;

/** What the sender's record counts besides the scanner's families. */
export type RecordedFamily = ScamFamily | 'repeated';

export const REPEATED_MESSAGE =
  'You sent this message to several members in the last day. Write to each person about their ad.';

/** A message as the shield screens it, in the unit of work that stores it. */
export interface Screening {
  senderId: number;
  /** The other side; null once their account is gone. */
  recipientId: number | null;
  /** The conversation, when there is one already. */
  conversationId?: number;
  /**
   * The sender is the ad's poster, answering a reply: a popular ad's poster may well answer every
   * reply alike ("Thanks for writing! Tell me about yourself"), so the same-message rule is not
   * theirs (the scam signals are).
   */
  fromPoster: boolean;
  text: string;
  /** The ad's city and state, as far as they are known: they never count. */
  places: ReadonlyArray<string | null>;
  now: Date;
}

/** A message the shield lets through (with what to store with it), or refuses. */
export type Screened =
  | { refusal: Refusal }
  | { refusal?: undefined; screening: MessageScreening; warnings: readonly ScamFamily[] };

const hoursBefore = (now: Date, hours: number) =>
  new Date(now.getTime() - hours * 3_600_000).toISOString();

/** The print a message is stored and counted by: a digest of its normalised text. */
export const printOf = (text: string) =>
  createHash('sha256').update(messagePrint(text)).digest('hex');

/**
 * Screens a message before it is stored, in the unit of work holding the sender's lock (and the
 * conversation's); a refusal is recorded for the sender here, and is the caller's to throw after
 * the unit of work commits.
 */
export async function screen(tx: Store, message: Screening): Promise<Screened> {
  const { senderId, text, now } = message;
  const at = now.toISOString();
  const answered =
    message.conversationId !== undefined &&
    (await tx.conversations.answered(message.conversationId, senderId));
  const { brand } = getSite();
  if (!answered && findContactDetails(text))
    return { refusal: new Refusal('invalid', contactDetailsInMessage(brand)) };
  const places = message.places.filter((place): place is string => place !== null);
  const print = answered || message.fromPoster ? undefined : printOf(text);
  const recipients = print === undefined ? [] : await printRecipientsOf(tx, message, print);
  const warnings = answered
    ? judgeMessage(text, getScamSignals(), { places, answered, brand }).warnings
    : await decideFirst(tx, message, places, recipients.length);
  if ('refusal' in warnings) return warnings;
  if (recipients.length >= REPEAT_RECIPIENTS) {
    await tx.scamShield.recordOutcome(senderId, 'repeated', 'refused', at);
    return { refusal: new Refusal('invalid', REPEATED_MESSAGE) };
  }
  return {
    screening: {
      ...(warnings.length > 0 ? { scamWarnings: warnings } : {}),
      ...(print !== undefined ? { print } : {}),
    },
    warnings,
  };
}

/**
 * The shield's decision on a first message (core/shield/decision.ts): the model's probability,
 * the signals and what the sender did; a refusal is recorded for the sender here.
 */
async function decideFirst(
  tx: Store,
  message: Screening,
  places: readonly string[],
  sameTextRecipients: number,
): Promise<ScamFamily[] | { refusal: Refusal }> {
  const { senderId, text, now } = message;
  const decision = judgeFirstMessage(shieldModel('messages'), getScamSignals(), text, {
    places,
    behaviour: await behaviourOf(tx, senderId, now, sameTextRecipients),
    fromPoster: message.fromPoster,
  });
  if (decision.outcome === 'delivered') return [];
  // For the moderators' list (/moderate/shield), kept 30 days: a refusal they mark mistaken
  // becomes an ordinary text for the corpus.
  await tx.shieldDecisions.record({
    senderId,
    recipientId: message.recipientId,
    text,
    outcome: decision.outcome,
    by: decision.by!,
    families: decision.families,
    probability: decision.probability,
    adjusted: decision.adjusted,
    behaviour: decision.behaviour,
    at: now.toISOString(),
  });
  if (decision.outcome === 'warned') return decision.families;
  const family = decision.families[0]!;
  await tx.scamShield.recordOutcome(senderId, family, 'refused', now.toISOString());
  const { brand } = getSite();
  return {
    refusal: new Refusal('invalid', firstMessageRefusal(text, family, decision.part!, brand)),
  };
}

/** What the shield weighs of the sender (core/shield/decision.ts). */
async function behaviourOf(
  tx: Store,
  senderId: number,
  now: Date,
  sameTextRecipients: number,
): Promise<SenderBehaviour> {
  const account = await tx.conversations.correspondent(senderId);
  const hourAgo = hoursBefore(now, 1);
  const verified = await isVerified(tx, senderId);
  const starts = await tx.conversations.recentStarts(senderId, hourAgo, 20);
  const record = await tx.scamShield.record(senderId);
  return {
    accountAgeHours: account ? (now.getTime() - Date.parse(account.createdAt)) / 3_600_000 : 0,
    verified,
    firstMessagesLastHour: starts.length,
    sameTextRecipients,
    earlierFlags: record.reduce((sum, row) => sum + row.count, 0),
    duplicatePhotos: await tx.photos.countDuplicatesOf(senderId),
  };
}

/** The other members the sender sent this first message to (its print) in the window. */
async function printRecipientsOf(tx: Store, message: Screening, print: string): Promise<number[]> {
  const since = hoursBefore(message.now, REPEAT_WINDOW_HOURS);
  const recipients = await tx.scamShield.printRecipients(message.senderId, print, since);
  return [...new Set(recipients.filter((id) => id !== message.recipientId))];
}

/**
 * After a message the shield let through is stored, in the same unit of work: its warnings on the
 * sender's record, and its print's flag when enough new accounts sent it.
 */
export async function screened(
  tx: Store,
  message: Pick<Screening, 'senderId' | 'text' | 'now'>,
  passed: Extract<Screened, { screening: MessageScreening }>,
): Promise<void> {
  const at = message.now.toISOString();
  for (const family of passed.warnings)
    await tx.scamShield.recordOutcome(message.senderId, family, 'warned', at);
  const { print } = passed.screening;
  if (print === undefined) return;
  // Always the last lock a message takes (after the account's and the conversation's).
  await tx.lock(`message-print:${print}`);
  const dismissed = await tx.scamShield.lastDismissal(print);
  const window = hoursBefore(message.now, REPEAT_WINDOW_HOURS);
  // A flag a moderator dismissed is not raised again by the messages they saw.
  const since = dismissed !== undefined && dismissed > window ? dismissed : window;
  const joinedAfter = new Date(message.now.getTime() - NEW_ACCOUNT_DAYS * DAY_MS).toISOString();
  const senders = await tx.scamShield.newSendersOfPrint(print, since, joinedAfter);
  if (senders.length >= FLAG_AFTER_NEW_ACCOUNTS)
    await tx.scamShield.flagRepeated(print, message.text, senders, at);
}
