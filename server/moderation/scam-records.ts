// What the moderators read of the scam shield (docs/product.md sections 6 and 7): an account's
// record of messages refused and warned, beside the account wherever they judge it (the queue's
// poster, the reported member), and the flags of the same first message from several new accounts,
// announced on /moderate until a moderator bans those accounts or dismisses the flag.
import { wholeDaysBetween } from '../../core/days.ts';
import type {
  FamilyCount,
  RepeatedMessageFlag,
  ScamRecordView,
} from '../../core/views/moderation.ts';
import { SCAM_FAMILY_NAMES, type ScamFamily } from '../../core/policy/index.ts';
import { Refusal } from '../../core/refusal.ts';
import type { ScamRecordRow } from '../../store/parts/scam-shield.ts';
import type { Store } from '../../store/store.ts';
import type { RecordedFamily } from '../messages/scam-shield.ts';

/** The families of the record as moderators read them, the scanner's and the shield's own. */
const RECORDED_FAMILY_NAMES: Readonly<Record<RecordedFamily, string>> = {
  ...SCAM_FAMILY_NAMES,
  repeated: 'same message to many members',
};

const nameOf = (family: string) =>
  family in RECORDED_FAMILY_NAMES ? RECORDED_FAMILY_NAMES[family as ScamFamily] : family;

/** The record's rows as the moderators read them, most frequent family first. */
export function scamRecordFrom(rows: readonly ScamRecordRow[]): ScamRecordView {
  const counts = (outcome: ScamRecordRow['outcome']): FamilyCount[] =>
    rows
      .filter((row) => row.outcome === outcome)
      .map((row) => ({ name: nameOf(row.family), count: row.count }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  return { refused: counts('refused'), warned: counts('warned') };
}

export const scamRecordOf = async (store: Store, accountId: number): Promise<ScamRecordView> =>
  scamRecordFrom(await store.scamShield.record(accountId));

/**
 * The flags to announce: open ones with at least one of their accounts not banned yet (banning
 * them all is deciding it), each account with its record.
 */
export async function repeatedMessagesView(
  store: Store,
  now: Date,
): Promise<RepeatedMessageFlag[]> {
  const flags = await store.scamShield.openFlags();
  const shown = flags.filter((flag) => flag.accounts.some((account) => !account.bannedAt));
  return Promise.all(
    shown.map(async (flag) => ({
      id: flag.id,
      sample: flag.sample,
      flaggedAt: flag.flaggedAt,
      accounts: await Promise.all(
        flag.accounts.map(async (account) => ({
          accountId: account.accountId,
          email: account.email,
          joinedAt: account.createdAt,
          daysSinceJoining: Math.max(0, wholeDaysBetween(account.createdAt, now)),
          banned: account.bannedAt !== null,
          scamRecord: await scamRecordOf(store, account.accountId),
        })),
      ),
    })),
  );
}

export const REPEATED_FLAG_GONE =
  'This announcement was dismissed already, or there is no such announcement.';

/** A moderator dismisses a flag: /moderate no longer announces it. */
export async function dismissRepeatedMessage(
  store: Store,
  moderatorId: number,
  flagId: number,
  now: Date,
): Promise<void> {
  const dismissed = await store.scamShield.dismissFlag(flagId, moderatorId, now.toISOString());
  if (!dismissed) throw new Refusal('not-found', REPEATED_FLAG_GONE);
}
