// The member's own data (docs/product.md section 8): everything Download my data puts in the file,
// and what Delete my account removes (server/accounts/delete-account.ts decides whether it may).
//
// What a deletion does follows the ON DELETE rules of migration 5: deleting the accounts row takes
// its sessions, remembered browsers, emailed-link tokens, ads, photos (migration 9; their bytes are
// the photo storage's, deleted by delete-account.ts), saved searches (migration 10) and blocks with
// it; the conversations it was in stay for the other side (its side becomes NULL), and so do its
// messages there, until the day the domain gives (kept_until, migration 22: 30 days, for the other
// side to read and report; the sweep deletes them then). A conversation left with neither side
// goes, its messages with it. Reports keep their copies of the ad and thread with the account set
// NULL. The moderation log copies ids and emails and is append-only: its rows stay as they are
// (the log page shows the account as deleted).
import { parseAdPhotoList, type AdPhotoRef } from '../../core/schemas/photos.ts';
import { messageSettingsStore, type MessageSettings } from './message-settings.ts';
import { photoStore, type PhotoRow } from './photos.ts';
import { reachSettingsStore, type ReachSettings } from './reach-settings.ts';
import { savedSearchStore, type SavedSearch } from './saved-searches.ts';
import { scamShieldStore, type ScamRecordRow } from './scam-shield.ts';
import { shieldDecisionStore, type ShieldDecisionRow } from './shield-decisions.ts';
import { statementStore, type StatementRow } from './statements.ts';
import type { StoreContext } from '../store-context.ts';
import type { MemberAdStatus } from '../tables.ts';
import { AD_TEXT_COLUMNS, type MemberAdText } from './ad-text.ts';

export interface DataAccountRow {
  id: number;
  email: string;
  dateOfBirth: string;
  createdAt: string;
  emailVerifiedAt: string | null;
  termsAcceptedAt: string;
  role: 'member' | 'moderator';
}

export interface DataAdRow extends MemberAdText {
  status: MemberAdStatus;
  pendingAge: number | null;
  pendingSeeks: string | null;
  pendingTitle: string | null;
  pendingDescription: string | null;
  createdAt: string;
  submittedAt: string;
  approvedAt: string | null;
  postedOn: string | null;
  expiresOn: string | null;
  rejectedReason: string | null;
  rejectedNote: string | null;
  updatedAt: string;
  /** Its photos in order, with the member's alt texts (the published ones, once live). */
  photos: AdPhotoRef[];
  /** A live ad's edit of its photos awaiting review; null when none. */
  pendingPhotos: AdPhotoRef[] | null;
  /** Kept off the site by reports until a moderator decides (hidden_ads): nothing of it published. */
  hidden: boolean;
}

export interface DataConversationRow {
  id: number;
  adId: number | null;
  adTitle: string;
  /** The member's side: they posted the ad, or they replied to it. */
  side: 'poster' | 'replier';
  /** Whether the other side's account still exists (false: deleted). */
  otherSideExists: boolean;
  /** The other side's account id, for telling the blocks apart; never put in the file. */
  otherSideId: number | null;
  startedAt: string;
  lastMessageAt: string;
  /** In the member's Filtered folder (their ad's, started with one of their hidden words). */
  filtered: boolean;
  /** In the member's Requests (their ad's, not answered yet). */
  request: boolean;
}

export interface DataMessageRow {
  conversationId: number;
  /** Sent by the member (else by the other side). */
  mine: boolean;
  body: string;
  sentAt: string;
  readAt: string | null;
}

export interface DataBlockRow {
  blockedId: number;
  createdAt: string;
}

export interface DataReportRow {
  id: number;
  adId: number;
  conversationId: number | null;
  reason: string;
  note: string;
  createdAt: string;
  resolution: string | null;
  resolvedAt: string | null;
}

/** A fraud notice the member received: an account they talked with was banned, or lost an ad. */
export interface DataFraudNoticeRow {
  /** That account, to tell which conversations it names; never put in the file. */
  accountId: number;
  action: 'banned' | 'ad-removed';
  createdAt: string;
  mailedAt: string | null;
}

export interface MemberDataRows {
  account: DataAccountRow;
  ads: DataAdRow[];
  /** Every photo of the member's, on an ad or not, removed or not (by id). */
  photos: PhotoRow[];
  conversations: DataConversationRow[];
  messages: DataMessageRow[];
  blocks: DataBlockRow[];
  reports: DataReportRow[];
  /** The member's saved searches, oldest first. */
  savedSearches: SavedSearch[];
  /** The statements of reasons of decisions about the member, with their appeals, newest first. */
  statements: StatementRow[];
  /** The scam shield's record of the member's messages: refused and warned, by family. */
  scamRecord: ScamRecordRow[];
  /** The shield's refusals and warnings of the member's first messages still kept (30 days). */
  shieldDecisions: ShieldDecisionRow[];
  /** The fraud notices the member received, oldest first. */
  fraudNotices: DataFraudNoticeRow[];
  /** Who may reach the member: their own settings. */
  reach: ReachSettings;
  /** Only verified members may write to them first (accounts.verified_first_only). */
  verifiedFirstOnly: boolean;
  /** How their new requests are mailed, and read receipts (message_settings). */
  messageSettings: MessageSettings;
}

export interface MemberDataStore {
  /**
   * Everything the data file holds, read in one transaction that sees one consistent snapshot
   * (REPEATABLE READ on PostgreSQL), unless already in a unit of work.
   */
  rowsOf(accountId: number): Promise<MemberDataRows | undefined>;
  /**
   * Within a unit of work: deletes the account and, through the foreign keys, what goes with it;
   * remembers its id (deleted_accounts) so that no new account takes it. Its messages stay in the
   * conversations whose other side is still there, until `keepMessagesUntil`. Answers the ids of
   * its ads that were live when they were deleted (they leave the site at the next publish).
   */
  removeAccount(accountId: number, now: string, keepMessagesUntil: string): Promise<number[]>;
}

export function memberDataStore(context: StoreContext): MemberDataStore {
  const { db } = context;
  return {
    rowsOf(accountId) {
      return db.isTransaction
        ? readRows(context, accountId)
        : db
            .transaction()
            .setIsolationLevel('repeatable read')
            .execute((trx) => readRows({ ...context, db: trx }, accountId));
    },

    async removeAccount(accountId, now, keepMessagesUntil) {
      // The ads first, each with the status it had as it went: an ad a moderator approves at this
      // very moment is either still in review here or already live, never missed.
      const ads = await db
        .deleteFrom('member_ads')
        .where('account_id', '=', accountId)
        .returning(['id', 'status'])
        .execute();
      await db.insertInto('deleted_accounts').values({ id: accountId, deleted_at: now }).execute();
      await db.deleteFrom('accounts').where('id', '=', accountId).execute();
      // A thread both of whose members have deleted their accounts is nobody's: it goes too, with
      // its messages (a report's copy of it stays with the report).
      await db
        .deleteFrom('conversations')
        .where('poster_id', 'is', null)
        .where('replier_id', 'is', null)
        .execute();
      // What is left of its messages is in threads the other side is still in: kept for them.
      await db
        .updateTable('messages')
        .set({ kept_until: keepMessagesUntil })
        .where('sender_id', '=', accountId)
        .execute();
      return ads
        .filter((ad) => ad.status === 'live')
        .map((ad) => ad.id)
        .sort((a, b) => a - b);
    },
  };
}

/** A message of the member's conversations as the copy holds it (either side's). */
const MESSAGE_COLUMNS = [
  'messages.conversation_id as conversationId',
  'messages.sender_id as senderId',
  'messages.body as body',
  'messages.sent_at as sentAt',
  'messages.read_at as readAt',
] as const;

async function readRows(
  context: StoreContext,
  accountId: number,
): Promise<MemberDataRows | undefined> {
  const { db } = context;
  const row = await db
    .selectFrom('accounts')
    .select([
      'id',
      'email',
      'date_of_birth as dateOfBirth',
      'created_at as createdAt',
      'email_verified_at as emailVerifiedAt',
      'terms_accepted_at as termsAcceptedAt',
      'role',
      'verified_first_only as verifiedFirstOnly',
    ])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { verifiedFirstOnly, ...account } = row;
  const ads = await db
    .selectFrom('member_ads')
    .select([
      ...AD_TEXT_COLUMNS,
      'status',
      'pending_age as pendingAge',
      'pending_seeks as pendingSeeks',
      'pending_title as pendingTitle',
      'pending_description as pendingDescription',
      'created_at as createdAt',
      'submitted_at as submittedAt',
      'approved_at as approvedAt',
      'posted_on as postedOn',
      'expires_on as expiresOn',
      'rejected_reason as rejectedReason',
      'rejected_note as rejectedNote',
      'updated_at as updatedAt',
      'photos',
      'pending_photos as pendingPhotos',
    ])
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  // The conversations the member is in, from either side. The other side is read only to tell
  // whether it still exists and which blocks belong to which thread.
  const threads = await db
    .selectFrom('conversations')
    .select([
      'id',
      'ad_id as adId',
      'ad_title as adTitle',
      'poster_id as posterId',
      'replier_id as replierId',
      'started_at as startedAt',
      'last_message_at as lastMessageAt',
      'filtered_at as filteredAt',
      'answered_at as answeredAt',
    ])
    .where((eb) => eb.or([eb('poster_id', '=', accountId), eb('replier_id', '=', accountId)]))
    .orderBy('started_at')
    .orderBy('id')
    .execute();
  const messages = await db
    .selectFrom('messages')
    .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
    .select(MESSAGE_COLUMNS)
    .where((eb) =>
      eb.or([
        eb('conversations.poster_id', '=', accountId),
        eb('conversations.replier_id', '=', accountId),
      ]),
    )
    .orderBy('messages.conversation_id')
    .orderBy('messages.id')
    .execute();
  const blocks = await db
    .selectFrom('blocks')
    .select(['blocked_id as blockedId', 'created_at as createdAt'])
    .where('blocker_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('blocked_id')
    .execute();
  const reports = await db
    .selectFrom('reports')
    .select([
      'id',
      'ad_id as adId',
      'conversation_id as conversationId',
      'reason',
      'note',
      'created_at as createdAt',
      'resolution',
      'resolved_at as resolvedAt',
    ])
    .where('reporter_account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const photos = await photoStore(context).listOwned(accountId);
  const savedSearches = await savedSearchStore(context).listOwned(accountId);
  const hidden =
    ads.length === 0
      ? []
      : await db
          .selectFrom('hidden_ads')
          .select('ad_id')
          .where('kind', '=', 'member')
          .where(
            'ad_id',
            'in',
            ads.map((ad) => ad.id),
          )
          .execute();
  const hiddenIds = new Set(hidden.map((row) => row.ad_id));
  const statements = await statementStore(context).listForAccount(accountId);
  const scamRecord = await scamShieldStore(context).record(accountId);
  const shieldDecisions = await shieldDecisionStore(context).ofSender(accountId);
  const fraudNotices = await db
    .selectFrom('fraud_notices')
    .select([
      'banned_account_id as accountId',
      'action',
      'created_at as createdAt',
      'mailed_at as mailedAt',
    ])
    .where('member_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('banned_account_id')
    .execute();
  return {
    account,
    ads: ads.map((ad) => ({
      ...ad,
      photos: parseAdPhotoList(ad.photos),
      pendingPhotos: ad.pendingPhotos === null ? null : parseAdPhotoList(ad.pendingPhotos),
      hidden: hiddenIds.has(ad.id),
    })),
    photos,
    conversations: threads.map(({ posterId, replierId, filteredAt, answeredAt, ...thread }) => {
      const side = posterId === accountId ? 'poster' : 'replier';
      const otherSideId = side === 'poster' ? replierId : posterId;
      // Filtered and Requests are the poster's alone: the member who wrote is never told.
      const filtered = side === 'poster' && filteredAt !== null;
      const request = side === 'poster' && !filtered && answeredAt === null;
      const otherSideExists = otherSideId !== null;
      return { ...thread, side, otherSideId, otherSideExists, filtered, request };
    }),
    messages: messages.map(({ senderId, ...message }) => ({
      ...message,
      mine: senderId === accountId,
    })),
    blocks,
    reports,
    savedSearches,
    statements,
    scamRecord,
    shieldDecisions,
    fraudNotices,
    reach: await reachSettingsStore(context).of(accountId),
    verifiedFirstOnly: Boolean(verifiedFirstOnly),
    messageSettings: await messageSettingsStore(context).of(accountId),
  };
}
