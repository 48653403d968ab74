// The SQLite schema's migration for notifications on members' devices (Web Push, docs/product.md
// section 7, "Notifications on this device"), appended to sqlite-migrations.ts's list (at its end:
// its number is its place there). Its twin is postgres-push-migrations.ts.
//
// - push_subscriptions: one row a device a member turned notifications on for, as the browser's
//   push service gave it (pushManager.subscribe): endpoint (the URL pushes are posted to, one row
//   an endpoint: a browser another member then signs in on and turns them on moves it to them),
//   p256dh and auth (the browser's public key and secret, base64url: RFC 8291), device_label (from
//   the browser's User-Agent when it subscribed: "Chrome on Android"). Gone with the account.
// - push_settings: what else a member is notified of, one row once they saved any (none: new
//   chat messages only): first messages (requests), a saved search's new ads, and whether a
//   notification shows the message's text (message_text), 0 or 1 each.
// - push_queue: pushes waiting to be sent, one row a device (server/push/push-queue.ts): the
//   Declarative Web Push JSON to send (payload, which holds a message's text only when its member
//   turned that on), its Topic (a newer push of the same topic replaces an undelivered one at the
//   push service), attempts so far, next_attempt_at (backoff after a failure), claimed_until (an
//   instance sending it holds it until then). Deleted once sent or given up, and with its device.
// - push_notices: when each member was last pushed something, by topic, for the per-member rate
//   limit; rows older than a day are deleted.
export const PUSH_MIGRATIONS: readonly string[] = [
  `CREATE TABLE push_subscriptions (
     id INTEGER PRIMARY KEY,
     account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     endpoint TEXT NOT NULL UNIQUE,
     p256dh TEXT NOT NULL,
     auth TEXT NOT NULL,
     device_label TEXT NOT NULL,
     created_at TEXT NOT NULL
   ) STRICT;
   CREATE INDEX push_subscriptions_by_account ON push_subscriptions(account_id);
   CREATE TABLE push_settings (
     account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
     requests INTEGER NOT NULL CHECK (requests IN (0, 1)),
     saved_searches INTEGER NOT NULL CHECK (saved_searches IN (0, 1)),
     message_text INTEGER NOT NULL CHECK (message_text IN (0, 1)),
     updated_at TEXT NOT NULL
   ) STRICT;
   CREATE TABLE push_queue (
     id INTEGER PRIMARY KEY,
     subscription_id INTEGER NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
     payload TEXT NOT NULL,
     topic TEXT NOT NULL,
     urgency TEXT NOT NULL CHECK (urgency IN ('very-low', 'low', 'normal', 'high')),
     created_at TEXT NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at TEXT NOT NULL,
     claimed_until TEXT
   ) STRICT;
   CREATE INDEX push_queue_due ON push_queue(next_attempt_at);
   CREATE INDEX push_queue_by_subscription ON push_queue(subscription_id);
   CREATE TABLE push_notices (
     id INTEGER PRIMARY KEY,
     account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     topic TEXT NOT NULL,
     created_at TEXT NOT NULL
   ) STRICT;
   CREATE INDEX push_notices_by_account ON push_notices(account_id, created_at);
   CREATE INDEX push_notices_by_at ON push_notices(created_at);`,
];
