// Migration 8: the rate limits' counters, shared by every instance (docs/product.md sections 5
// and 12). PostgreSQL only: SQLite counts them in memory (one instance), so it has no such table.
// The columns are the ones rate-limiter-flexible's RateLimiterPostgres reads and writes (its own
// CREATE TABLE, which the engine never lets it run): key is keyPrefix:key, points the count in the
// window, expire when the window (or a block) ends, in milliseconds since 1970 (null: never). key
// is text, not the library's varchar(255): a prefix, an email of up to 254 characters and a
// client address together are longer. Expired rows are deleted by the engine's sweep, by expire.
import type { Migration } from './migration.ts';
import { POSTGRES_TYPES } from './schema-sql.ts';

const { text } = POSTGRES_TYPES;

export const RATE_LIMITS: readonly Migration[] = [
  {
    name: 'rate-limits',
    postgres: `CREATE TABLE rate_limits (
     key ${text} PRIMARY KEY,
     points integer NOT NULL DEFAULT 0,
     expire bigint
   );
   CREATE INDEX rate_limits_by_expiry ON rate_limits(expire);`,
  },
];
