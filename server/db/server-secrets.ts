// Random keys made once per database (server_secrets, migration 5), for keyed hashes that must stay
// the same across restarts and servers sharing the database: a visitor's reporter key is the HMAC
// of their address with one of them, so the address itself is never stored.
import { randomBytes } from 'node:crypto';
import type { Db } from './database.ts';

/** The secret called `name`, made (32 random bytes) the first time it is asked for. */
export function serverSecret(db: Db, name: string): Buffer {
  // Two servers asking at once: the first insert wins, and both read the same row back.
  db.prepare('INSERT INTO server_secrets (name, value) VALUES (?, ?) ON CONFLICT DO NOTHING').run(
    name,
    randomBytes(32),
  );
  const row = db.prepare('SELECT value FROM server_secrets WHERE name = ?').get(name) as {
    value: Buffer;
  };
  return row.value;
}
