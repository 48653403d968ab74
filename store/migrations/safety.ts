// Migrations 11 to 17: the tables of the trust and safety features, fraud notices and the scam
// shield on messages (docs/product.md section 7), statements of reasons and appeals (section 6),
// the photos' explicit-image score, the moderators' photo settings and the duplicate-photo index
// (docs/product.md section 10), restrictions lifted before an appeal (section 6). migrations.ts
// says how migrations run.
import {
  moderatorPhotoRevealsTable,
  photoHashChunksTable,
  POSTGRES_TYPES,
  SQLITE_TYPES,
  type SqlTypes,
} from './schema-sql.ts';
import type { Migration } from './migration.ts';

const { text } = POSTGRES_TYPES;

/** The text of migration 12 on each engine, byte for byte as it shipped (schema-sql.ts). */
const scamShieldOnMessages = (
  t: SqlTypes,
) => `ALTER TABLE messages ADD COLUMN scam_warnings ${t.text};
   ALTER TABLE messages ADD COLUMN print ${t.text};
   CREATE INDEX messages_by_print ON messages(print, sent_at) WHERE print IS NOT NULL;
   CREATE TABLE scam_outcomes (
     id ${t.id},
     account_id ${t.ref} NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     family ${t.text} NOT NULL,
     outcome ${t.text} NOT NULL CHECK (outcome IN ('refused', 'warned')),
     at ${t.text} NOT NULL
   )${t.options};
   CREATE INDEX scam_outcomes_by_account ON scam_outcomes(account_id);
   CREATE TABLE repeated_message_flags (
     id ${t.id},
     print ${t.text} NOT NULL,
     sample ${t.text} NOT NULL,
     flagged_at ${t.text} NOT NULL,
     dismissed_at ${t.text},
     dismissed_by ${t.ref}
   )${t.options};
   CREATE UNIQUE INDEX repeated_message_flags_one_open ON repeated_message_flags(print)
     WHERE dismissed_at IS NULL;
   CREATE INDEX repeated_message_flags_by_print ON repeated_message_flags(print, dismissed_at);
   CREATE TABLE repeated_message_flag_accounts (
     flag_id ${t.ref} NOT NULL REFERENCES repeated_message_flags(id) ON DELETE CASCADE,
     account_id ${t.ref} NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     PRIMARY KEY (flag_id, account_id)
   )${t.keyedOptions};`;

/**
 * decision_statements as migration 13 makes it. Migration 19 makes it again, as `name` until the
 * old table goes, with `moreKinds` in its CHECK and `moreColumns` after appeal_until. Both have
 * shipped: never change what this writes.
 */
export const decisionStatementsTable = (
  name = 'decision_statements',
  moreKinds = '',
  moreColumns = '',
) => `CREATE TABLE ${name} (
     id INTEGER PRIMARY KEY,
     log_id INTEGER NOT NULL UNIQUE,
     account_id INTEGER,
     kind TEXT NOT NULL CHECK (kind IN ('ad-rejected', 'edit-rejected', 'ad-removed', 'ad-hidden',
       'photo-removed', 'account-banned'${moreKinds})),
     ad_id INTEGER,
     photo_id INTEGER,
     reason_key TEXT NOT NULL,
     clause TEXT NOT NULL,
     facts TEXT NOT NULL,
     trigger TEXT NOT NULL CHECK (trigger IN ('report', 'moderator', 'automatic')),
     automated_detection INTEGER NOT NULL CHECK (automated_detection IN (0, 1)),
     automated_decision INTEGER NOT NULL CHECK (automated_decision IN (0, 1)),
     decided_by INTEGER,
     decided_at TEXT NOT NULL,
     content_at TEXT,
     appeal_until TEXT NOT NULL${moreColumns}
   ) STRICT;`;

/** appeals as migration 13 makes it, and migration 19 again (shipped: never change it). */
export const APPEALS_TABLE = `CREATE TABLE appeals (
     id INTEGER PRIMARY KEY,
     statement_id INTEGER NOT NULL UNIQUE REFERENCES decision_statements(id),
     account_id INTEGER NOT NULL,
     text TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 2000),
     filed_at TEXT NOT NULL,
     outcome TEXT CHECK (outcome IN ('upheld', 'reversed')),
     reply TEXT,
     decided_by INTEGER,
     decided_at TEXT
   ) STRICT;`;

export const SAFETY: readonly Migration[] = [
  // Fraud bans tell the people who talked with the account (docs/product.md section 7):
  // one row per banned account and member who answered it, written in the ban's (or the removal's)
  // unit of work, so that it is made once however many moderators or instances act at once.
  // banned_account_id references nothing: account ids are never given again (deleted_accounts),
  // and the notice outlives the account. action: 'banned', or 'ad-removed' (a live ad of the
  // account removed for scam or fraud; a later ban turns it into 'banned', without a new mail).
  // mailed_at: when the mail was claimed (UPDATE … WHERE mailed_at IS NULL, so one sender wins);
  // given back (NULL) when it could not be sent, and swept every hour.
  {
    name: 'fraud-notices',
    sqlite: `CREATE TABLE fraud_notices (
     banned_account_id INTEGER NOT NULL,
     member_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     action TEXT NOT NULL CHECK (action IN ('banned', 'ad-removed')),
     created_at TEXT NOT NULL,
     mailed_at TEXT,
     PRIMARY KEY (banned_account_id, member_id)
   ) STRICT, WITHOUT ROWID;
   CREATE INDEX fraud_notices_by_member ON fraud_notices(member_id);
   CREATE INDEX fraud_notices_unmailed ON fraud_notices(banned_account_id) WHERE mailed_at IS NULL;`,
    postgres: `CREATE TABLE fraud_notices (
     banned_account_id bigint NOT NULL,
     member_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     action ${text} NOT NULL CHECK (action IN ('banned', 'ad-removed')),
     created_at ${text} NOT NULL,
     mailed_at ${text},
     PRIMARY KEY (banned_account_id, member_id)
   );
   CREATE INDEX fraud_notices_by_member ON fraud_notices(member_id);
   CREATE INDEX fraud_notices_unmailed ON fraud_notices(banned_account_id) WHERE mailed_at IS NULL;`,
  },
  // The scam shield on messages (docs/product.md section 7).
  // - messages.scam_warnings: the scam families (core/policy/scam-signals.ts) the message was
  //   delivered with a warning for (JSON array; NULL: none): its recipient reads them beside it.
  // - messages.print: the SHA-256 (hex) of the normalised text (messagePrint) of a message sent
  //   while unanswered (a "first" message; NULL otherwise): the same message to many members is
  //   counted by it. A digest, not the text: an index entry has a size limit (PostgreSQL's).
  // - scam_outcomes: every refusal and warning of the scan, counted for the sender (the refused
  //   message itself is not stored): family ('repeated': the same message to many members),
  //   outcome 'refused' or 'warned'. Moderators read it with the account.
  // - repeated_message_flags: the same first message from several new accounts in a day, for the
  //   moderators (`/moderate` announces it) until one dismisses it (one open flag a print), with
  //   one of the messages as `sample`;
  //   repeated_message_flag_accounts: the accounts that sent it.
  {
    name: 'scam-shield-on-messages',
    sqlite: scamShieldOnMessages(SQLITE_TYPES),
    postgres: scamShieldOnMessages(POSTGRES_TYPES),
  },
  // Statements of reasons and appeals (docs/product.md section 6):
  // - decision_statements: one per restriction a moderator or a rule made (an ad rejected,
  //   removed or hidden by reports, an edit rejected, a photo removed, an account banned), keyed
  //   to its moderation_log row (log_id). Ids are copied, not referenced, so the statement outlives
  //   the account, as the log does. reason_key: the moderation reason's key
  //   (core/schemas/moderation-reasons.ts), or 'reports' / 'under-18-report' for a hide by reports;
  //   clause: the numbered clause of the terms page it applies (core/schemas/terms-clauses.ts).
  //   facts: JSON of what was decided on (the words or photo concerned, the report reasons and
  //   their count, never who reported; the scanner's flags; a ban's removed ads). trigger: 'report',
  //   'moderator' (their own review) or 'automatic' (a rule decided); automated_detection and
  //   automated_decision: 0 or 1. decided_by: the moderator, NULL for a rule. content_at: when the
  //   content decided on was submitted (posting to decision). appeal_until: 6 months after.
  // - appeals: at most one per statement (the unique index), by its member, 1–2,000 characters;
  //   outcome NULL while in review, then 'upheld' (reply: the reason the member reads) or
  //   'reversed', set once (UPDATE … WHERE outcome IS NULL) by a moderator other than decided_by.
  {
    name: 'statements-and-appeals',
    sqlite: `${decisionStatementsTable()}
   CREATE INDEX decision_statements_by_account ON decision_statements(account_id, decided_at);
   CREATE INDEX decision_statements_by_at ON decision_statements(decided_at);
   ${APPEALS_TABLE}
   CREATE INDEX appeals_open ON appeals(filed_at) WHERE outcome IS NULL;`,
    postgres: `CREATE TABLE decision_statements (
     id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     log_id bigint NOT NULL UNIQUE,
     account_id bigint,
     kind ${text} NOT NULL CHECK (kind IN ('ad-rejected', 'edit-rejected', 'ad-removed',
       'ad-hidden', 'photo-removed', 'account-banned')),
     ad_id bigint,
     photo_id bigint,
     reason_key ${text} NOT NULL,
     clause ${text} NOT NULL,
     facts ${text} NOT NULL,
     trigger ${text} NOT NULL CHECK (trigger IN ('report', 'moderator', 'automatic')),
     automated_detection integer NOT NULL CHECK (automated_detection IN (0, 1)),
     automated_decision integer NOT NULL CHECK (automated_decision IN (0, 1)),
     decided_by bigint,
     decided_at ${text} NOT NULL,
     content_at ${text},
     appeal_until ${text} NOT NULL
   );
   CREATE INDEX decision_statements_by_account ON decision_statements(account_id, decided_at);
   CREATE INDEX decision_statements_by_at ON decision_statements(decided_at);
   CREATE TABLE appeals (
     id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     statement_id bigint NOT NULL UNIQUE REFERENCES decision_statements(id),
     account_id bigint NOT NULL,
     text ${text} NOT NULL CHECK (char_length(text) BETWEEN 1 AND 2000),
     filed_at ${text} NOT NULL,
     outcome ${text} CHECK (outcome IN ('upheld', 'reversed')),
     reply ${text},
     decided_by bigint,
     decided_at ${text}
   );
   CREATE INDEX appeals_open ON appeals(filed_at) WHERE outcome IS NULL;`,
  },
  // The explicit-image score of each photo (docs/product.md section 10): nsfwjs's
  // porn + hentai (explicit_score) and sexy (sexy_score) probabilities, 0–1, written together when
  // the photo is processed. NULL: not scored: every photo stored before this migration (their
  // uploads are gone, so nothing scores them again here) and any whose scoring failed.
  {
    name: 'explicit-score',
    sqlite: `ALTER TABLE photos ADD COLUMN explicit_score REAL;
   ALTER TABLE photos ADD COLUMN sexy_score REAL;`,
    // double precision, as SQLite's REAL, so both engines answer the same numbers.
    postgres: `ALTER TABLE photos ADD COLUMN explicit_score double precision;
   ALTER TABLE photos ADD COLUMN sexy_score double precision;`,
  },
  // The moderators' shield from what they review (docs/product.md section 6):
  // - moderator_photo_settings: a moderator's own "Show all photos blurred" (blur_all 0 or 1); no
  //   row: off.
  // - moderator_photo_reveals: the photos a moderator chose to see ("Show photo") while they were
  //   blurred, so that the choice outlives the page (a form post, the queue's own actions). Gone
  //   with the moderator's account or the photo.
  {
    name: 'moderators-photo-shield',
    sqlite: `CREATE TABLE moderator_photo_settings (
     account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
     blur_all INTEGER NOT NULL CHECK (blur_all IN (0, 1)),
     updated_at TEXT NOT NULL
   ) STRICT;
   ${moderatorPhotoRevealsTable(SQLITE_TYPES)}`,
    postgres: `CREATE TABLE moderator_photo_settings (
     account_id bigint PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
     blur_all integer NOT NULL CHECK (blur_all IN (0, 1)),
     updated_at ${text} NOT NULL
   );
   ${moderatorPhotoRevealsTable(POSTGRES_TYPES)}`,
  },
  // The duplicate-photo index (docs/product.md section 10; store/parts/photo-hash-index.ts):
  // each photo's perceptual hash cut into 3 pieces (chunk 0, 1, 2: 22, 21 and 21 bits), one row a
  // piece, found by (chunk, value); account_id and phash are copied so that a look-up reads the
  // index alone. Rows go with their photo (ON DELETE CASCADE: an ad's, an account's deletion), and
  // the photo sweep takes those of photos removed long ago; photos stored before this migration
  // are indexed by the sweep too (server/photos/photo-duplicates.ts). photos.duplicate_of: the
  // photo of another member's this one looked like when it was uploaded (no foreign key: the queue
  // reads it again and shows nothing when that photo is gone or no longer alike).
  {
    name: 'duplicate-photos',
    sqlite: `${photoHashChunksTable(SQLITE_TYPES)}
   ALTER TABLE photos ADD COLUMN duplicate_of INTEGER;`,
    postgres: `${photoHashChunksTable(POSTGRES_TYPES, ' INCLUDE (account_id, phash)')}
   ALTER TABLE photos ADD COLUMN duplicate_of bigint;`,
  },
  // A restriction lifted before an appeal decided it (docs/product.md section 6):
  // decision_statements.lifted_at: when a moderator ended it before any appeal decided it (a hide
  // by reports: its reports dismissed, or the ad removed or its account banned instead), NULL
  // otherwise; such a statement offers no appeal, and its open appeal is closed. lifted_for: the
  // statement of the decision that replaced it (the removal, the ban); NULL: no breach found.
  // The index by ad: the hourly photo sweep asks, of each rejected or removed ad, whether its
  // decision can still be appealed (its photos are kept meanwhile).
  {
    name: 'lifted-restrictions',
    sqlite: `ALTER TABLE decision_statements ADD COLUMN lifted_at TEXT;
   ALTER TABLE decision_statements ADD COLUMN lifted_for INTEGER;
   CREATE INDEX decision_statements_by_ad ON decision_statements(ad_id) WHERE ad_id IS NOT NULL;`,
    postgres: `ALTER TABLE decision_statements ADD COLUMN lifted_at ${text};
   ALTER TABLE decision_statements ADD COLUMN lifted_for bigint;
   CREATE INDEX decision_statements_by_ad ON decision_statements(ad_id) WHERE ad_id IS NOT NULL;`,
  },
];
