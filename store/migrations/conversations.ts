// Migration 22: Requests and Chats, the member's message settings, and a departed member's
// messages kept for the other side (docs/product.md section 7, issue 54). migrations.ts says how
// migrations run.
//
// - conversations.answered_at: when the poster first wrote in it (NULL: never). Until then it is
//   in the poster's Requests (or Filtered) folder; from then, in their Chats. Conversations from
//   before take the time of the poster's first message, so that those already answered are chats.
// - messages.sender_id no longer references accounts: a deleted account's messages do not go with
//   it at once. Delete my account stamps them kept_until (30 days on), for the other side to read
//   and report; the hourly sweep deletes them then (store/parts/member-data.ts, departed-messages.ts).
//   SQLite cannot drop a foreign key in place, and foreign keys cannot be turned off inside a
//   migration's transaction: the table is made again with its rows, ids kept. Nothing references
//   messages, so dropping the old table deletes nothing else.
// - message_settings: a member's own settings for messages, one row once they saved any (none:
//   both off). requests_at_once: 1 mails each new request as it comes (else one daily digest);
//   read_receipts: 1 shows "Read" between two members who both turned it on.
// - request_digests: the daily digest of new requests, one row a member once a run looked at them:
//   checked_at, when a run last claimed the member's digest (each claim covers the requests that
//   came since the one before; a member is claimed at most once in 24 hours, by one run of one
//   instance); mailed_at, when the last digest was mailed.
import type { Migration } from './migration.ts';
import { POSTGRES_TYPES } from './schema-sql.ts';

const { text } = POSTGRES_TYPES;

export const REQUESTS_AND_CHATS: readonly Migration[] = [
  {
    name: 'requests-and-chats',
    sqlite: `ALTER TABLE conversations ADD COLUMN answered_at TEXT;
   UPDATE conversations SET answered_at = (
     SELECT MIN(m.sent_at) FROM messages m
     WHERE m.conversation_id = conversations.id AND m.sender_id = conversations.poster_id
   );
   CREATE TABLE messages_kept (
     id INTEGER PRIMARY KEY,
     conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
     sender_id INTEGER NOT NULL,
     body TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
     sent_at TEXT NOT NULL,
     read_at TEXT,
     scam_warnings TEXT,
     print TEXT,
     kept_until TEXT
   ) STRICT;
   INSERT INTO messages_kept (id, conversation_id, sender_id, body, sent_at, read_at,
       scam_warnings, print)
     SELECT id, conversation_id, sender_id, body, sent_at, read_at, scam_warnings, print
     FROM messages;
   DROP TABLE messages;
   ALTER TABLE messages_kept RENAME TO messages;
   CREATE INDEX messages_by_conversation ON messages(conversation_id, id);
   CREATE INDEX messages_by_sender ON messages(sender_id);
   CREATE INDEX messages_by_print ON messages(print, sent_at) WHERE print IS NOT NULL;
   CREATE INDEX messages_kept_until ON messages(kept_until) WHERE kept_until IS NOT NULL;
   CREATE TABLE message_settings (
     account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
     requests_at_once INTEGER NOT NULL DEFAULT 0 CHECK (requests_at_once IN (0, 1)),
     read_receipts INTEGER NOT NULL DEFAULT 0 CHECK (read_receipts IN (0, 1)),
     updated_at TEXT NOT NULL
   ) STRICT;
   CREATE TABLE request_digests (
     account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
     checked_at TEXT NOT NULL,
     mailed_at TEXT
   ) STRICT;`,
    // PostgreSQL drops the messages' foreign key to accounts in place (its name is the one
    // PostgreSQL gave it in migration 1).
    postgres: `ALTER TABLE conversations ADD COLUMN answered_at ${text};
   UPDATE conversations SET answered_at = (
     SELECT MIN(m.sent_at) FROM messages m
     WHERE m.conversation_id = conversations.id AND m.sender_id = conversations.poster_id
   );
   ALTER TABLE messages DROP CONSTRAINT messages_sender_id_fkey;
   ALTER TABLE messages ADD COLUMN kept_until ${text};
   CREATE INDEX messages_kept_until ON messages(kept_until) WHERE kept_until IS NOT NULL;
   CREATE TABLE message_settings (
     account_id bigint PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
     requests_at_once integer NOT NULL DEFAULT 0 CHECK (requests_at_once IN (0, 1)),
     read_receipts integer NOT NULL DEFAULT 0 CHECK (read_receipts IN (0, 1)),
     updated_at ${text} NOT NULL
   );
   CREATE TABLE request_digests (
     account_id bigint PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
     checked_at ${text} NOT NULL,
     mailed_at ${text}
   );`,
  },
];
