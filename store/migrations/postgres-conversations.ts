// The PostgreSQL schema's migration 16: Requests and Chats, the member's message settings, and a
// departed member's messages kept for the other side (SQLite's migration 21,
// sqlite-conversation-migrations.ts, whose comments say what each column is for). Appended to
// postgres-migrations.ts's list. PostgreSQL drops the messages' foreign key to accounts in place
// (its name is the one PostgreSQL gave it in migration 1).
const text = 'text COLLATE "C"';

export const POSTGRES_CONVERSATION_MIGRATIONS: readonly string[] = [
  `ALTER TABLE conversations ADD COLUMN answered_at ${text};
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
];
