// The SQLite schema's versioned migrations. SQLite's user_version holds how many have run; each runs
// once, in order, in its own transaction. Append new ones; never edit one that has shipped. The
// PostgreSQL schema (postgres-migrations.ts) is the same tables; a migration added here has its twin there.
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE accounts (
     id INTEGER PRIMARY KEY,
     email TEXT NOT NULL UNIQUE,
     password_hash TEXT NOT NULL,
     date_of_birth TEXT NOT NULL,
     terms_accepted_at TEXT NOT NULL,
     created_at TEXT NOT NULL
   ) STRICT;
   CREATE TABLE sessions (
     id INTEGER PRIMARY KEY,
     token_hash BLOB NOT NULL UNIQUE,
     account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL
   ) STRICT;
   CREATE INDEX sessions_by_account ON sessions(account_id);`,
  // Browsers a member has signed in from: their failed sign-ins are counted apart from anyone
  // else's, so strangers failing on an account never hold its owner back there.
  `CREATE TABLE known_devices (
     id INTEGER PRIMARY KEY,
     token_hash BLOB NOT NULL UNIQUE,
     account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     created_at TEXT NOT NULL,
     last_used_at TEXT NOT NULL
   ) STRICT;
   CREATE INDEX known_devices_by_account ON known_devices(account_id);`,
  // Email verification and password reset (docs/product.md section 6): when the address was verified,
  // and the emailed links' tokens, stored hashed, single use (used_at), each with its expiry.
  `ALTER TABLE accounts ADD COLUMN email_verified_at TEXT;
   CREATE TABLE email_tokens (
     id INTEGER PRIMARY KEY,
     token_hash BLOB NOT NULL UNIQUE,
     account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     purpose TEXT NOT NULL CHECK (purpose IN ('verify', 'reset')),
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     used_at TEXT
   ) STRICT;
   CREATE INDEX email_tokens_by_account ON email_tokens(account_id, purpose);`,
  // Posting, moderation and publishing (docs/product.md section 6).
  // - accounts.role: 'moderator' only through `npm run moderator -- add EMAIL`; banned_at: sign-in
  //   refused. banned_emails: addresses that cannot sign up again (kept when an account goes).
  // - member_ads: a member's ads. The id is the ad's public id, from 100,000,001 up so that it
  //   never meets an editor's CSV id in practice (the build still checks). The ad's columns are
  //   what is (or will be) published; while an edit of a live ad waits for review, the edited
  //   text is in pending_*, and the live ad stays as it was. status: 'review' (new, or edited
  //   while not live), 'live' (approved; expired once expires_on <= today, derived, not stored),
  //   'rejected', 'removed' (by a moderator or a ban), 'deleted' (by its member). marks: the
  //   policy scanner's ambiguous terms (JSON array), shown highlighted to the moderator.
  //   revision counts every change, so two moderators acting on one version cannot both win.
  // - moderation_log: append-only (triggers refuse UPDATE and DELETE); ids and emails are copied,
  //   not referenced, so the record outlives the account.
  `ALTER TABLE accounts ADD COLUMN role TEXT NOT NULL DEFAULT 'member'
     CHECK (role IN ('member', 'moderator'));
   ALTER TABLE accounts ADD COLUMN banned_at TEXT;
   CREATE TABLE banned_emails (
     email TEXT PRIMARY KEY,
     banned_at TEXT NOT NULL
   ) STRICT;
   CREATE TABLE member_ads (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     state TEXT NOT NULL,
     city TEXT NOT NULL,
     age INTEGER NOT NULL,
     seeks TEXT NOT NULL,
     title TEXT NOT NULL,
     description TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('review', 'live', 'rejected', 'removed', 'deleted')),
     marks TEXT NOT NULL DEFAULT '[]',
     pending_age INTEGER,
     pending_seeks TEXT,
     pending_title TEXT,
     pending_description TEXT,
     pending_marks TEXT,
     created_at TEXT NOT NULL,
     submitted_at TEXT NOT NULL,
     approved_at TEXT,
     posted_on TEXT,
     expires_on TEXT,
     reminded_at TEXT,
     rejected_reason TEXT,
     rejected_note TEXT,
     updated_at TEXT NOT NULL,
     revision INTEGER NOT NULL DEFAULT 1
   ) STRICT;
   INSERT INTO sqlite_sequence (name, seq) VALUES ('member_ads', 100000000);
   CREATE INDEX member_ads_by_account ON member_ads(account_id, created_at);
   CREATE INDEX member_ads_by_status ON member_ads(status, submitted_at);
   CREATE INDEX member_ads_by_city ON member_ads(account_id, state, city, created_at);
   CREATE TABLE moderation_log (
     id INTEGER PRIMARY KEY,
     at TEXT NOT NULL,
     moderator_id INTEGER,
     moderator_email TEXT NOT NULL,
     action TEXT NOT NULL,
     ad_id INTEGER,
     account_id INTEGER,
     account_email TEXT,
     reason TEXT,
     note TEXT
   ) STRICT;
   CREATE INDEX moderation_log_by_at ON moderation_log(at);
   CREATE TRIGGER moderation_log_no_update BEFORE UPDATE ON moderation_log
     BEGIN SELECT RAISE(ABORT, 'the moderation log is append-only'); END;
   CREATE TRIGGER moderation_log_no_delete BEFORE DELETE ON moderation_log
     BEGIN SELECT RAISE(ABORT, 'the moderation log is append-only'); END;`,
  // Replies, blocking, reports and the member's own data (docs/product.md sections 7 and 8).
  // - conversations: one per member ad and replier (the poster is the ad's member). ad_title is
  //   copied so a thread still names its ad after the ad or its member is gone. A member who deletes
  //   their account leaves the other side's thread in place (their id becomes NULL: "a deleted
  //   member"), never the other way round.
  // - messages: 1–2,000 characters; read_at is when the recipient first opened the thread after it
  //   came (unread counts). A deleted account's messages go with it (ON DELETE CASCADE).
  // - blocks: the blocker receives nothing from the blocked member, and the blocked member can
  //   neither write in their threads nor reply to the blocker's ads. Either side's deletion ends it.
  // - reports: about an ad (conversation_id NULL) or a conversation (conversation_id set, ad_id its
  //   ad). ad_id is the public id of any published ad, an editor's too, so it references nothing.
  //   reporter_key is `account:{id}` or `address:{keyed hash of the client address}` (no address
  //   stored): one report per reporter per ad, and per conversation, by the unique indexes.
  //   reported_account_id: the ad's member, or the reported side of a thread; NULL for an editor's
  //   ad. ad_copy: a JSON copy of the ad as the reporter saw it (state, city, age, seeks, title,
  //   description), and thread: of the conversation when one is reported, so the moderator sees what
  //   was reported even once it has left the site or its writer has deleted the account. resolution is set once for all of an
  //   ad's open reports by one moderator action (also in moderation_log).
  // - hidden_ads: ads kept off the site by reports until a moderator decides (why 'reports': three
  //   reporters, 'under-18': one report of that reason), or for good ('removed': an editor's ad a
  //   moderator removed; content/ads/ should lose it too). kind says which source the id is from,
  //   so the build applies an editor's hidden id to the CSV ads and a member's to the database's.
  // - server_secrets: random keys made once per database (the reporter key's hash of an address).
  `CREATE TABLE conversations (
     id INTEGER PRIMARY KEY,
     ad_id INTEGER REFERENCES member_ads(id) ON DELETE SET NULL,
     ad_title TEXT NOT NULL,
     poster_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
     replier_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
     started_at TEXT NOT NULL,
     last_message_at TEXT NOT NULL
   ) STRICT;
   CREATE UNIQUE INDEX conversations_one_per_ad_and_replier ON conversations(ad_id, replier_id);
   CREATE INDEX conversations_by_poster ON conversations(poster_id, last_message_at);
   CREATE INDEX conversations_by_replier ON conversations(replier_id, last_message_at);
   CREATE TABLE messages (
     id INTEGER PRIMARY KEY,
     conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
     sender_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     body TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
     sent_at TEXT NOT NULL,
     read_at TEXT
   ) STRICT;
   CREATE INDEX messages_by_conversation ON messages(conversation_id, id);
   CREATE INDEX messages_by_sender ON messages(sender_id);
   CREATE TABLE blocks (
     blocker_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     blocked_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     created_at TEXT NOT NULL,
     PRIMARY KEY (blocker_id, blocked_id)
   ) STRICT, WITHOUT ROWID;
   CREATE INDEX blocks_by_blocked ON blocks(blocked_id);
   CREATE TABLE reports (
     id INTEGER PRIMARY KEY,
     ad_id INTEGER NOT NULL,
     conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
     reported_account_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
     reporter_key TEXT NOT NULL,
     reporter_account_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
     reason TEXT NOT NULL,
     note TEXT NOT NULL DEFAULT '',
     ad_copy TEXT NOT NULL,
     thread TEXT,
     created_at TEXT NOT NULL,
     resolved_at TEXT,
     resolution TEXT CHECK (resolution IN ('dismissed', 'removed', 'banned')),
     resolved_by INTEGER
   ) STRICT;
   CREATE UNIQUE INDEX reports_one_per_reporter_and_ad ON reports(ad_id, reporter_key)
     WHERE conversation_id IS NULL;
   CREATE UNIQUE INDEX reports_one_per_reporter_and_conversation
     ON reports(conversation_id, reporter_key) WHERE conversation_id IS NOT NULL;
   CREATE INDEX reports_open_by_ad ON reports(resolved_at, ad_id);
   CREATE INDEX reports_by_reporter ON reports(reporter_key, created_at);
   CREATE TABLE hidden_ads (
     ad_id INTEGER PRIMARY KEY,
     kind TEXT NOT NULL CHECK (kind IN ('member', 'editor')),
     why TEXT NOT NULL CHECK (why IN ('reports', 'under-18', 'removed')),
     hidden_at TEXT NOT NULL
   ) STRICT;
   CREATE TABLE server_secrets (
     name TEXT PRIMARY KEY,
     value BLOB NOT NULL
   ) STRICT;`,
  // Deleted accounts (Delete my account, docs/product.md section 8): only the id and when, no email.
  // accounts.id is a rowid, which SQLite hands out again once the highest row is gone; but the
  // moderation log and reports (reporter_key `account:{id}`) copy ids that outlive the account, so
  // a new account must never get a deleted one's id. Sign-up takes the next id above both tables.
  `CREATE TABLE deleted_accounts (
     id INTEGER PRIMARY KEY,
     deleted_at TEXT NOT NULL
   ) STRICT;`,
  // Reports weigh their reporters (docs/product.md section 8, issue 21).
  // - reporter_round: the reporter's how-many-th report of this ad. One report per reporter per
  //   ad and round, by the unique index that replaces reports_one_per_reporter_and_ad: a reporter
  //   whose report a moderator decided may report the ad again once it has been changed (its text
  //   differs from their last report's copy), as round 2, 3, …; existing reports are round 1. Conversation reports keep their index: one per reporter per conversation.
  // - reporter_dismissed: how many of the reporter's "May involve someone under 18" reports
  //   moderators had dismissed in the 90 days before this one, counted when it was sent; from 2
  //   such a report no longer hides the ad by itself (it still comes first, marked urgent).
  `ALTER TABLE reports ADD COLUMN reporter_round INTEGER NOT NULL DEFAULT 1;
   ALTER TABLE reports ADD COLUMN reporter_dismissed INTEGER NOT NULL DEFAULT 0;
   DROP INDEX reports_one_per_reporter_and_ad;
   CREATE UNIQUE INDEX reports_one_per_reporter_ad_and_round
     ON reports(ad_id, reporter_key, reporter_round) WHERE conversation_id IS NULL;`,
  // Photos on members' ads (docs/product.md section 10, issue 20).
  // - photos: one processed photo (never the uploaded file): whose, on which ad (none yet: an
  //   upload the member has not posted, swept after a day), its largest size, its perceptual hash
  //   (16 hex digits), why a moderator should look at it (`flag`), and a moderator's removal.
  //   AUTOINCREMENT, as for blocked_photos: a deleted photo's id is never given to another one
  //   (blocked hashes, links and logs name photos by id).
  // - photo_variants: its WebP sizes, each named by its bytes' digest (`key`); photo_blobs: those
  //   bytes when photos are stored in the database (server/photos/photo-storage.ts).
  // - blocked_photos: the perceptual hashes of photos moderators removed, and why; a new upload
  //   close to one is refused or flagged (server/photos/known-photos.ts).
  // - member_ads.photos: the ad's photos in order with their alt texts (JSON `[{id, alt}]`), as
  //   published once it is live; pending_photos: a live ad's edit of them, awaiting a moderator.
  `CREATE TABLE photos (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     ad_id INTEGER REFERENCES member_ads(id) ON DELETE CASCADE,
     width INTEGER NOT NULL,
     height INTEGER NOT NULL,
     phash TEXT NOT NULL,
     flag TEXT,
     created_at TEXT NOT NULL,
     removed_at TEXT,
     removed_reason TEXT,
     removed_note TEXT,
     removed_by INTEGER
   ) STRICT;
   CREATE INDEX photos_by_account ON photos(account_id, created_at);
   CREATE INDEX photos_by_ad ON photos(ad_id);
   CREATE TABLE photo_variants (
     photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
     width INTEGER NOT NULL,
     height INTEGER NOT NULL,
     key TEXT NOT NULL,
     size INTEGER NOT NULL,
     PRIMARY KEY (photo_id, width)
   ) STRICT, WITHOUT ROWID;
   CREATE INDEX photo_variants_by_key ON photo_variants(key);
   CREATE TABLE photo_blobs (
     key TEXT PRIMARY KEY,
     bytes BLOB NOT NULL,
     created_at TEXT NOT NULL
   ) STRICT;
   CREATE TABLE blocked_photos (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     phash TEXT NOT NULL,
     reason TEXT NOT NULL,
     photo_id INTEGER,
     ad_id INTEGER,
     blocked_at TEXT NOT NULL
   ) STRICT;
   ALTER TABLE member_ads ADD COLUMN photos TEXT NOT NULL DEFAULT '[]';
   ALTER TABLE member_ads ADD COLUMN pending_photos TEXT;`,
  // Saved searches (docs/product.md section 11, issue 22): a member's search, as its normalized
  // query string (src/pages/search/searchQuery.ts `searchUrl`'s query), and the daily digest of
  // the ads new since the last one. seen_day/seen_ids: the newest posting day among the ads that
  // matched when it was last mailed (or saved), and the ids (a JSON array) of that day's that
  // matched then: an ad approved later the same day has that day too, and any id, so an id is
  // what says it is new; checked_at: when a digest run last claimed it to look for new ads (NULL:
  // never), so each is looked at once a day by one run of one instance (an UPDATE … WHERE
  // checked_at < cutoff); last_sent_at: when its last digest was mailed; unsubscribe_hash: the
  // SHA-256 of the token in the digest's one-click unsubscribe link.
  `CREATE TABLE saved_searches (
     id INTEGER PRIMARY KEY,
     account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     query TEXT NOT NULL,
     label TEXT NOT NULL,
     created_at TEXT NOT NULL,
     checked_at TEXT,
     last_sent_at TEXT,
     seen_day TEXT,
     seen_ids TEXT,
     unsubscribe_hash BLOB NOT NULL UNIQUE
   ) STRICT;
   CREATE UNIQUE INDEX saved_searches_one_per_query ON saved_searches(account_id, query);`,
  // Fraud bans tell the people who talked with the account (docs/product.md section 7, issue 29):
  // one row per banned account and member who answered it, written in the ban's (or the removal's)
  // unit of work, so that it is made once however many moderators or instances act at once.
  // banned_account_id references nothing: account ids are never given again (deleted_accounts),
  // and the notice outlives the account. action: 'banned', or 'ad-removed' (a live ad of the
  // account removed for scam or fraud; a later ban turns it into 'banned', without a new mail).
  // mailed_at: when the mail was claimed (UPDATE … WHERE mailed_at IS NULL, so one sender wins);
  // given back (NULL) when it could not be sent, and swept every hour.
  `CREATE TABLE fraud_notices (
     banned_account_id INTEGER NOT NULL,
     member_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     action TEXT NOT NULL CHECK (action IN ('banned', 'ad-removed')),
     created_at TEXT NOT NULL,
     mailed_at TEXT,
     PRIMARY KEY (banned_account_id, member_id)
   ) STRICT, WITHOUT ROWID;
   CREATE INDEX fraud_notices_by_member ON fraud_notices(member_id);
   CREATE INDEX fraud_notices_unmailed ON fraud_notices(banned_account_id) WHERE mailed_at IS NULL;`,
  // The scam shield on messages (docs/product.md section 7, issue 29 items 2 and 3).
  // - messages.scam_warnings: the scam families (src/policy/scam-signals.ts) the message was
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
  `ALTER TABLE messages ADD COLUMN scam_warnings TEXT;
   ALTER TABLE messages ADD COLUMN print TEXT;
   CREATE INDEX messages_by_print ON messages(print, sent_at) WHERE print IS NOT NULL;
   CREATE TABLE scam_outcomes (
     id INTEGER PRIMARY KEY,
     account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     family TEXT NOT NULL,
     outcome TEXT NOT NULL CHECK (outcome IN ('refused', 'warned')),
     at TEXT NOT NULL
   ) STRICT;
   CREATE INDEX scam_outcomes_by_account ON scam_outcomes(account_id);
   CREATE TABLE repeated_message_flags (
     id INTEGER PRIMARY KEY,
     print TEXT NOT NULL,
     sample TEXT NOT NULL,
     flagged_at TEXT NOT NULL,
     dismissed_at TEXT,
     dismissed_by INTEGER
   ) STRICT;
   CREATE UNIQUE INDEX repeated_message_flags_one_open ON repeated_message_flags(print)
     WHERE dismissed_at IS NULL;
   CREATE INDEX repeated_message_flags_by_print ON repeated_message_flags(print, dismissed_at);
   CREATE TABLE repeated_message_flag_accounts (
     flag_id INTEGER NOT NULL REFERENCES repeated_message_flags(id) ON DELETE CASCADE,
     account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     PRIMARY KEY (flag_id, account_id)
   ) STRICT, WITHOUT ROWID;`,
  // Statements of reasons and appeals (docs/product.md section 6, issue 30):
  // - decision_statements: one per restriction a moderator or a rule made (an ad rejected,
  //   removed or hidden by reports, an edit rejected, a photo removed, an account banned), keyed
  //   to its moderation_log row (log_id). Ids are copied, not referenced, so the statement outlives
  //   the account, as the log does. reason_key: the moderation reason's key
  //   (src/schemas/moderation-reasons.ts), or 'reports' / 'under-18-report' for a hide by reports;
  //   clause: the numbered clause of the terms page it applies (src/schemas/terms-clauses.ts).
  //   facts: JSON of what was decided on (the words or photo concerned, the report reasons and
  //   their count, never who reported; the scanner's flags; a ban's removed ads). trigger: 'report',
  //   'moderator' (their own review) or 'automatic' (a rule decided); automated_detection and
  //   automated_decision: 0 or 1. decided_by: the moderator, NULL for a rule. content_at: when the
  //   content decided on was submitted (posting to decision). appeal_until: 6 months after.
  // - appeals: at most one per statement (the unique index), by its member, 1–2,000 characters;
  //   outcome NULL while in review, then 'upheld' (reply: the reason the member reads) or
  //   'reversed', set once (UPDATE … WHERE outcome IS NULL) by a moderator other than decided_by.
  `CREATE TABLE decision_statements (
     id INTEGER PRIMARY KEY,
     log_id INTEGER NOT NULL UNIQUE,
     account_id INTEGER,
     kind TEXT NOT NULL CHECK (kind IN ('ad-rejected', 'edit-rejected', 'ad-removed', 'ad-hidden',
       'photo-removed', 'account-banned')),
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
     appeal_until TEXT NOT NULL
   ) STRICT;
   CREATE INDEX decision_statements_by_account ON decision_statements(account_id, decided_at);
   CREATE INDEX decision_statements_by_at ON decision_statements(decided_at);
   CREATE TABLE appeals (
     id INTEGER PRIMARY KEY,
     statement_id INTEGER NOT NULL UNIQUE REFERENCES decision_statements(id),
     account_id INTEGER NOT NULL,
     text TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 2000),
     filed_at TEXT NOT NULL,
     outcome TEXT CHECK (outcome IN ('upheld', 'reversed')),
     reply TEXT,
     decided_by INTEGER,
     decided_at TEXT
   ) STRICT;
   CREATE INDEX appeals_open ON appeals(filed_at) WHERE outcome IS NULL;`,
  // The explicit-image score of each photo (docs/product.md section 10, issue 31): nsfwjs's
  // porn + hentai (explicit_score) and sexy (sexy_score) probabilities, 0–1, written together when
  // the photo is processed. NULL: not scored: every photo stored before this migration (their
  // uploads are gone, so nothing scores them again here) and any whose scoring failed.
  `ALTER TABLE photos ADD COLUMN explicit_score REAL;
   ALTER TABLE photos ADD COLUMN sexy_score REAL;`,
];
