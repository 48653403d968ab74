// Migration 26: a device's notifications belong to the session that turned them on (docs/product.md
// section 7, "Notifications on this device"). migrations.ts says how migrations run.
//
// - push_subscriptions.session_id: the session (sessions.id, never its token) of the browser that
//   subscribed. Ending that session ends the device's notifications with it: signing out, a
//   password reset or a ban (every session of the account), or the session's expiry once the
//   sweep deletes it (the row goes by the reference's ON DELETE CASCADE, its waiting pushes with
//   it). Null for a device stored before this migration: it keeps its notifications until the
//   member removes it, or its push service says it is gone.
import type { Migration } from './migration.ts';

export const PUSH_SESSIONS: readonly Migration[] = [
  {
    name: 'push sessions',
    sqlite: `ALTER TABLE push_subscriptions
     ADD COLUMN session_id INTEGER REFERENCES sessions(id) ON DELETE CASCADE;
   CREATE INDEX push_subscriptions_by_session ON push_subscriptions(session_id);`,
    postgres: `ALTER TABLE push_subscriptions
     ADD COLUMN session_id bigint REFERENCES sessions(id) ON DELETE CASCADE;
   CREATE INDEX push_subscriptions_by_session ON push_subscriptions(session_id);`,
  },
];
