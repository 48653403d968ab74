// The SQLite schema's versioned migrations. SQLite's user_version holds how many have run; each runs
// once, in order, in its own transaction. Append new ones; never edit one that has shipped. The
// PostgreSQL schema (postgres-migrations.ts) is the same tables; a migration added here has its twin there.
import {
  blocksTable,
  emailTokensTable,
  hiddenAdsTable,
  knownDevicesTable,
  REPORTS_INDEXES,
  sessionsTable,
  SQLITE_TYPES,
} from './schema-sql.ts';
import { PUSH_MIGRATIONS } from './push.ts';
import { SAFETY_MIGRATIONS } from './safety.ts';
import { VERIFICATION_MIGRATIONS } from './verification.ts';
import { AGE_ASSURANCE_MIGRATIONS } from './age-assurance.ts';
import { CONVERSATION_MIGRATIONS } from './conversations.ts';

export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE accounts (
     id INTEGER PRIMARY KEY,
     email TEXT NOT NULL UNIQUE,
     password_hash TEXT NOT NULL,
     date_of_birth TEXT NOT NULL,
     terms_accepted_at TEXT NOT NULL,
     created_at TEXT NOT NULL
   ) STRICT;
   ${sessionsTable(SQLITE_TYPES)}`,
  // Browsers a member has signed in from: their failed sign-ins are counted apart from anyone
  // else's, so strangers failing on an account never hold its owner back there.
  knownDevicesTable(SQLITE_TYPES),
  // Email verification and password reset (docs/product.md section 6): when the address was verified,
  // and the emailed links' tokens, stored hashed, single use (used_at), each with its expiry.
  `ALTER TABLE accounts ADD COLUMN email_verified_at TEXT;
   ${emailTokensTable(SQLITE_TYPES)}`,
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
   ${blocksTable(SQLITE_TYPES)}
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
   ${REPORTS_INDEXES}
   ${hiddenAdsTable(SQLITE_TYPES)}
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
  // Reports weigh their reporters (docs/product.md section 8).
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
  // Photos on members' ads (docs/product.md section 10).
  // - photos: one processed photo (never the uploaded file): whose, on which ad (none yet: an
  //   upload the member has not posted, swept after a day), its largest size, its perceptual hash
  //   (16 hex digits), why a moderator should look at it (`flag`), and a moderator's removal.
  //   AUTOINCREMENT, as for blocked_photos: a deleted photo's id is never given to another one
  //   (blocked hashes, links and logs name photos by id).
  // - photo_variants: its WebP sizes, each named by its bytes' digest (`key`); photo_blobs: those
  //   bytes when photos are stored in the database (store/photo-storage/photo-storage.ts).
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
  // Saved searches (docs/product.md section 11): a member's search, as its normalized
  // query string (core/search-query.ts `searchUrl`'s query), and the daily digest of
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
  // 10 to 13: the tables of the scam shield, the statements of reasons and appeals, and photo
  // triage (sqlite-safety-migrations.ts).
  ...SAFETY_MIGRATIONS,
  // Who may reach a member (docs/product.md section 7, "Who may reach me"): reach_settings holds a
  // member's own settings, one row once they saved any (none: anyone may write). min_age,
  // max_age: the ages a member writing first may have (NULL: no bound); hidden_words: a JSON
  // array of the member's hidden words, as they saved them. conversations.filtered_at: when the
  // message that started it had one of the poster's hidden words (NULL: in the inbox); the poster
  // finds it in their Filtered folder until they answer it.
  `CREATE TABLE reach_settings (
     account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
     min_age INTEGER CHECK (min_age BETWEEN 18 AND 99),
     max_age INTEGER CHECK (max_age BETWEEN 18 AND 99),
     hidden_words TEXT NOT NULL,
     updated_at TEXT NOT NULL
   ) STRICT;
   ALTER TABLE conversations ADD COLUMN filtered_at TEXT;`,
  // 18: verified members (sqlite-verification-migrations.ts).
  ...VERIFICATION_MIGRATIONS,
  // 19: moderators' review of the scam shield (docs/product.md section 7; store/parts/shield-decisions.ts).
  // - shield_decisions: each first message the shield refused or delivered with a warning, as it
  //   was sent (`text`), for the moderators' list (/moderate/shield), deleted 30 days after
  //   created_at. sender_id, recipient_id: NULL once that account is deleted. decided_by:
  //   'signal' (the editable scam signals) or 'model' (the learned model); families: the shield's
  //   families, comma-separated; probability: the model's, 0–1; adjusted: after the sender's
  //   behaviour; behaviour: its reasons, joined with '; '. marked_mistaken_at, marked_by: when and
  //   by which moderator (copied, no reference) it was marked a mistake, once.
  // - shield_label_candidates: texts waiting for an editor to label them into the shield's corpus
  //   (`npm run shield:labels`): a decision marked mistaken ('ordinary') or a first message of an
  //   account banned for fraud ('scam'). The text and the label only: no account, no message id.
  //   exported_at: when the export wrote it (NULL: waiting).
  `CREATE TABLE shield_decisions (
     id INTEGER PRIMARY KEY,
     sender_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
     recipient_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
     text TEXT NOT NULL,
     outcome TEXT NOT NULL CHECK (outcome IN ('refused', 'warned')),
     decided_by TEXT NOT NULL CHECK (decided_by IN ('signal', 'model')),
     families TEXT NOT NULL,
     probability REAL NOT NULL,
     adjusted REAL NOT NULL,
     behaviour TEXT NOT NULL,
     created_at TEXT NOT NULL,
     marked_mistaken_at TEXT,
     marked_by INTEGER
   ) STRICT;
   CREATE INDEX shield_decisions_by_at ON shield_decisions(created_at);
   CREATE INDEX shield_decisions_by_sender ON shield_decisions(sender_id);
   CREATE INDEX shield_decisions_by_recipient ON shield_decisions(recipient_id);
   CREATE TABLE shield_label_candidates (
     id INTEGER PRIMARY KEY,
     label TEXT NOT NULL CHECK (label IN ('scam', 'ordinary')),
     text TEXT NOT NULL,
     reason TEXT NOT NULL CHECK (reason IN ('marked-mistaken', 'banned-for-fraud')),
     created_at TEXT NOT NULL,
     exported_at TEXT
   ) STRICT;
   CREATE INDEX shield_label_candidates_waiting ON shield_label_candidates(id)
     WHERE exported_at IS NULL;
   CREATE INDEX shield_label_candidates_by_export ON shield_label_candidates(exported_at)
     WHERE exported_at IS NOT NULL;`,
  ...AGE_ASSURANCE_MIGRATIONS,
  // 21: Requests and Chats, message settings, a departed member's messages kept 30 days
  // (sqlite-conversation-migrations.ts).
  ...CONVERSATION_MIGRATIONS,
  // Notifications on members' devices (sqlite-push-migrations.ts).
  ...PUSH_MIGRATIONS,
];
