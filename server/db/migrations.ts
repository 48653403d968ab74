// Versioned schema migrations. SQLite's user_version holds how many have run; each runs once,
// in order, in its own transaction. Append new ones; never edit one that has shipped.
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
  // Email verification and password reset (product.md section 6): when the address was verified,
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
];
