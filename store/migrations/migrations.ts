// The schema's migrations, one list for both engines: a migration's number is its place here, the
// same on SQLite and PostgreSQL, and each feature's file holds its SQL for both side by side
// (migration.ts). Each runs once, in order, in its own transaction (sqlite-engine.ts,
// postgres-engine.ts: PostgreSQL's under an advisory lock, so that instances starting together
// never run one twice), and each database records the numbers it has had in its ledger
// (ledger.ts). A step with no SQL for an engine does nothing there but is recorded all the same.
// Append new ones, with both engines' SQL; never edit one that has shipped
// (tests/unit/store/shipped-migrations.test.ts pins their text).
import { AGE_ASSURANCE, AGE_CHECK_OPENID4VP } from './age-assurance.ts';
import { FIRST_SCHEMA } from './first-schema.ts';
import type { Migration, MigrationEngine } from './migration.ts';
import { PHOTOS } from './photos.ts';
import { PURGE_BUDGET } from './purge-budget.ts';
import { PUSH } from './push.ts';
import { PUSH_SESSIONS } from './push-sessions.ts';
import { RATE_LIMITS } from './rate-limits.ts';
import { REACH } from './reach.ts';
import { REQUESTS_AND_CHATS } from './conversations.ts';
import { SAFETY } from './safety.ts';
import { SAVED_SEARCHES } from './saved-searches.ts';
import { SHIELD_REVIEW } from './shield.ts';
import { VERIFICATION } from './verification.ts';

export type { Migration, MigrationEngine } from './migration.ts';

export const MIGRATIONS: readonly Migration[] = [
  // 1–7: SQLite's first seven, which PostgreSQL makes all at once in 1.
  ...FIRST_SCHEMA,
  // 8: PostgreSQL's rate-limit counters (SQLite counts in memory).
  ...RATE_LIMITS,
  ...PHOTOS, // 9
  ...SAVED_SEARCHES, // 10
  ...SAFETY, // 11–17
  ...REACH, // 18
  ...VERIFICATION, // 19
  ...SHIELD_REVIEW, // 20
  ...AGE_ASSURANCE, // 21
  ...REQUESTS_AND_CHATS, // 22
  ...PUSH, // 23
  ...PURGE_BUDGET, // 24
  ...AGE_CHECK_OPENID4VP, // 25
  ...PUSH_SESSIONS, // 26
];

/** Each migration's SQL on `engine`, in order, leaving out those with none there. */
export function migrationsOn(engine: MigrationEngine): string[] {
  return MIGRATIONS.flatMap((migration) => migration[engine] ?? []);
}
