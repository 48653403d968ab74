// The tables of the store, as both engines' migrations define them (migrations/, whose files
// say what each column is for): what Kysely checks every query against. Times are ISO 8601 strings
// (`2026-11-24T01:15:03.123Z`), days `YYYY-MM-DD`, in both engines, so that they compare as text.
import type { ColumnType, Generated } from 'kysely';
import type { AgeTables } from './age-tables.ts';
import type { MessageTables } from './message-tables.ts';
import type { PurgeTables } from './purge-tables.ts';
import type { PushTables } from './push-tables.ts';
import type { ShieldTables } from './shield-tables.ts';

/** Every table; those of the newer features are listed beside their types (…-tables.ts). */
export interface Tables extends ShieldTables, AgeTables, MessageTables, PushTables, PurgeTables {
  accounts: AccountsTable;
  sessions: SessionsTable;
  known_devices: KnownDevicesTable;
  email_tokens: EmailTokensTable;
  banned_emails: { email: string; banned_at: string };
  member_ads: MemberAdsTable;
  moderation_log: ModerationLogTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  blocks: { blocker_id: number; blocked_id: number; created_at: string };
  reports: ReportsTable;
  hidden_ads: HiddenAdsTable;
  server_secrets: { name: string; value: Buffer };
  deleted_accounts: { id: number; deleted_at: string };
  photos: PhotosTable;
  photo_variants: PhotoVariantsTable;
  photo_blobs: { key: string; bytes: Buffer; created_at: string };
  blocked_photos: BlockedPhotosTable;
  photo_hash_chunks: PhotoHashChunksTable;
  saved_searches: SavedSearchesTable;
  reach_settings: ReachSettingsTable;
  fraud_notices: FraudNoticesTable;
  scam_outcomes: ScamOutcomesTable;
  repeated_message_flags: RepeatedMessageFlagsTable;
  repeated_message_flag_accounts: { flag_id: number; account_id: number };
  decision_statements: DecisionStatementsTable;
  appeals: AppealsTable;
  moderator_photo_settings: { account_id: number; blur_all: number; updated_at: string };
  moderator_photo_reveals: { account_id: number; photo_id: number; revealed_at: string };
  verifications: VerificationsTable;
}

export interface AccountsTable {
  id: number;
  email: string;
  password_hash: string;
  date_of_birth: string;
  terms_accepted_at: string;
  created_at: string;
  email_verified_at: string | null;
  role: Generated<'member' | 'moderator'>;
  banned_at: string | null;
  /** 1: first messages only from verified members (migrations/verification.ts). */
  verified_first_only: Generated<number>;
  /** The state the member says they live in; null: not said (migrations/age-assurance.ts). */
  declared_state: Generated<string | null>;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: Buffer;
  account_id: number;
  created_at: string;
  expires_at: string;
}

export interface KnownDevicesTable {
  id: Generated<number>;
  token_hash: Buffer;
  account_id: number;
  created_at: string;
  last_used_at: string;
}

export interface EmailTokensTable {
  id: Generated<number>;
  token_hash: Buffer;
  account_id: number;
  purpose: 'verify' | 'reset';
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export type MemberAdStatus = 'review' | 'live' | 'rejected' | 'removed' | 'deleted';

export interface MemberAdsTable {
  id: Generated<number>;
  account_id: number;
  state: string;
  city: string;
  age: number;
  seeks: string;
  title: string;
  description: string;
  status: MemberAdStatus;
  /** JSON array of the policy scanner's ambiguous terms. */
  marks: Generated<string>;
  pending_age: number | null;
  pending_seeks: string | null;
  pending_title: string | null;
  pending_description: string | null;
  pending_marks: string | null;
  created_at: string;
  submitted_at: string;
  approved_at: string | null;
  posted_on: string | null;
  expires_on: string | null;
  reminded_at: string | null;
  rejected_reason: string | null;
  rejected_note: string | null;
  updated_at: string;
  revision: Generated<number>;
  /** JSON `[{id, alt}]`: the ad's photos in order (core/schemas/photos.ts AdPhotoRef). */
  photos: Generated<string>;
  /** A live ad's edit of its photos, awaiting a moderator; null when none. */
  pending_photos: string | null;
}

export interface ModerationLogTable {
  id: Generated<number>;
  at: string;
  moderator_id: number | null;
  moderator_email: string;
  action: string;
  ad_id: number | null;
  account_id: number | null;
  account_email: string | null;
  reason: string | null;
  note: string | null;
}

export interface ConversationsTable {
  id: Generated<number>;
  ad_id: number | null;
  ad_title: string;
  poster_id: number | null;
  replier_id: number | null;
  started_at: string;
  last_message_at: string;
  /** Set when its first message had a hidden word of the poster's: in their Filtered folder. */
  filtered_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the poster first wrote in it: out of their Requests, into their Chats (null: never). */
  answered_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ReachSettingsTable {
  account_id: number;
  min_age: number | null;
  max_age: number | null;
  /** A JSON array of the member's hidden words. */
  hidden_words: string;
  updated_at: string;
}

export interface MessagesTable {
  id: Generated<number>;
  conversation_id: number;
  sender_id: number;
  body: string;
  sent_at: string;
  read_at: string | null;
  /** JSON array of the scam families it was delivered with a warning for; null: none. */
  scam_warnings: string | null;
  /** SHA-256 (hex) of its normalised text, for a message sent while unanswered; else null. */
  print: string | null;
  /**
   * Set when its sender deleted their account: kept for the other side to read and report until
   * then, deleted by the hourly sweep after (null: the sender's account exists).
   */
  kept_until: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ReportsTable {
  id: Generated<number>;
  ad_id: number;
  conversation_id: number | null;
  reported_account_id: number | null;
  reporter_key: string;
  reporter_account_id: number | null;
  reason: string;
  note: Generated<string>;
  /** JSON copy of the ad as the reporter saw it. */
  ad_copy: string;
  /** JSON copy of the reported conversation. */
  thread: string | null;
  created_at: string;
  resolved_at: string | null;
  resolution: 'dismissed' | 'removed' | 'banned' | null;
  resolved_by: number | null;
  reporter_round: Generated<number>;
  reporter_dismissed: Generated<number>;
}

export interface HiddenAdsTable {
  ad_id: number;
  kind: 'member' | 'editor';
  why: 'reports' | 'under-18' | 'removed';
  hidden_at: string;
}

export interface PhotosTable {
  id: Generated<number>;
  account_id: number;
  /** Null: an upload not (yet) on an ad. */
  ad_id: number | null;
  /** The largest variant's size. */
  width: number;
  height: number;
  /** The perceptual hash: 16 hex digits. */
  phash: string;
  /** Why a moderator should look at it (it looks like a photo moderators removed). */
  flag: string | null;
  /** nsfwjs's porn + hentai, 0–1 (core/schemas/photos.ts PhotoScore); null: not scored. */
  explicit_score: number | null;
  /** nsfwjs's sexy, 0–1; null: not scored. */
  sexy_score: number | null;
  /** Another member's photo this one looked like when uploaded (server/photos/photo-duplicates.ts). */
  duplicate_of: number | null;
  created_at: string;
  removed_at: string | null;
  removed_reason: string | null;
  removed_note: string | null;
  removed_by: number | null;
}

export interface PhotoVariantsTable {
  photo_id: number;
  width: number;
  height: number;
  /** The WebP bytes' digest (core/schemas/photos.ts PhotoVariant.key). */
  key: string;
  /** Bytes. */
  size: number;
}

export interface BlockedPhotosTable {
  id: Generated<number>;
  phash: string;
  /** The moderation reason it was removed for (core/schemas/moderation-reasons.ts). */
  reason: string;
  photo_id: number | null;
  ad_id: number | null;
  blocked_at: string;
}

export interface SavedSearchesTable {
  id: Generated<number>;
  account_id: number;
  /** The search's normalized query string (`state=…&q=…`, no leading `?`). */
  query: string;
  /** What the member reads on /account and in the digest's subject. */
  label: string;
  created_at: string;
  /** When a digest run last claimed it to look for new ads; null: never. */
  checked_at: string | null;
  /** When its last digest was mailed; null: never. */
  last_sent_at: string | null;
  /** The newest posting day that matched when last mailed (or saved), and that day's ad ids (JSON). */
  seen_day: string | null;
  seen_ids: string | null;
  /** SHA-256 of the one-click unsubscribe token. */
  unsubscribe_hash: Buffer;
}

export interface FraudNoticesTable {
  /** The account banned (or whose live ad was removed) for scam or fraud; outlives it. */
  banned_account_id: number;
  /** A member who answered a message of that account. */
  member_id: number;
  /** What the moderators did: banned the account, or removed a live ad of it. */
  action: 'banned' | 'ad-removed';
  created_at: string;
  /** When its mail was claimed to be sent; null: not yet (or its sending failed). */
  mailed_at: string | null;
}

export interface ScamOutcomesTable {
  id: Generated<number>;
  account_id: number;
  /** A scam family (core/policy/scam-signals.ts), or `repeated` (the same message to many). */
  family: string;
  outcome: 'refused' | 'warned';
  at: string;
}

export interface RepeatedMessageFlagsTable {
  id: Generated<number>;
  /** The messages' print (messages.print). */
  print: string;
  /** One of the messages, as the moderators read it. */
  sample: string;
  flagged_at: string;
  dismissed_at: string | null;
  dismissed_by: number | null;
}

/** A statement of reasons, one per restriction (migrations/safety.ts, migration 13). */
export interface DecisionStatementsTable {
  id: Generated<number>;
  /** The moderation_log row of the decision. */
  log_id: number;
  /** The member concerned; copied, it outlives the account. */
  account_id: number | null;
  kind: StatementKind;
  ad_id: number | null;
  photo_id: number | null;
  /** The moderation reason's key, or 'reports' / 'under-18-report' for a hide by reports. */
  reason_key: string;
  /** The numbered clause of the terms page (core/schemas/terms-clauses.ts): `4.1`. */
  clause: string;
  /** JSON: StatementFacts (store/parts/statements.ts). */
  facts: string;
  trigger: 'report' | 'moderator' | 'automatic';
  automated_detection: number;
  automated_decision: number;
  /** The moderator who decided; null when a rule did. */
  decided_by: number | null;
  decided_at: string;
  /** When the content decided on was submitted (or the account made, for a ban). */
  content_at: string | null;
  appeal_until: string;
  /**
   * When the restriction ended before any appeal decided it (a hide by reports: its reports
   * dismissed, or the ad removed or banned instead): it offers no appeal since, and an appeal
   * still open was closed by it.
   */
  lifted_at: string | null;
  /** The statement of the decision that replaced it; null: lifted, no breach found. */
  lifted_for: number | null;
}

export type StatementKind =
  | 'ad-rejected'
  | 'edit-rejected'
  | 'ad-removed'
  | 'ad-hidden'
  | 'photo-removed'
  | 'account-banned'
  | 'verification-refused';

/** A member's appeal of one statement's decision (at most one). */
export interface AppealsTable {
  id: Generated<number>;
  statement_id: number;
  account_id: number;
  /** 1–2,000 characters. */
  text: string;
  filed_at: string;
  /** Null while in review. */
  outcome: 'upheld' | 'reversed' | null;
  /** Why it was upheld, as the member reads it. */
  reply: string | null;
  decided_by: number | null;
  decided_at: string | null;
}

/** One piece of a photo's perceptual hash (store/parts/photo-hash-index.ts): the duplicate index. */
export interface PhotoHashChunksTable {
  /** Which piece: 0, 1 or 2 (HASH_CHUNKS). */
  chunk: number;
  /** The piece's bits as an unsigned integer. */
  value: number;
  photo_id: number;
  /** The photo's member (copied: a look-up reads the index alone). */
  account_id: number;
  /** The whole hash, 16 hex digits (copied, to measure the distance). */
  phash: string;
}

/** A member's verification challenge and what became of it (migrations/verification.ts). */
export interface VerificationsTable {
  id: Generated<number>;
  account_id: number;
  status: 'open' | 'submitted' | 'approved' | 'refused' | 'expired' | 'withdrawn';
  /** In clear until decided; NULL after. */
  code: string | null;
  code_hash: string;
  pose: string;
  created_at: string;
  expires_at: string;
  uploads: Generated<number>;
  submitted_at: string | null;
  selfie_key: string | null;
  selfie_width: number | null;
  selfie_height: number | null;
  selfie_phash: string | null;
  selfie_deleted_at: string | null;
  level: 'person' | 'photos' | null;
  /** JSON array of photo ids. */
  photo_ids: Generated<string>;
  decided_at: string | null;
  decided_by: number | null;
  refusal_reason: string | null;
  statement_id: number | null;
  withdrawn_at: string | null;
}
