// Which migrations a database has had: its ledger, the table schema_migrations, one row a
// migration (migrations.ts) with its number, its name and when it was recorded. The highest number
// is the database's version. The engines run what is missing (sqlite-engine.ts,
// postgres-engine.ts); this module says what the ledger is, on both.
//
// Before issue 50 each engine numbered its migrations its own way, and recorded them differently:
// SQLite counted them in `PRAGMA user_version` (its 23 migrations), PostgreSQL in a table
// schema_version (its 18: its migration 1 was SQLite's 1 to 7 at once, its 2 the rate limits).
// Each engine's old list was exactly the migrations 1 to 24 here that have SQL for it, in order,
// so a database the old code migrated is at the number of its engine's n-th such migration (n its
// old count). The first time the ledger is missing, the engine makes it from the old count, in
// one transaction, and never runs those migrations again: SQLite's rows are stamped with the time
// the ledger was made (the old count kept no times), PostgreSQL's keep schema_version's times.
// schema_version itself is left as it was, never written again: an instance of the older code
// starting beside a newer one during a rolling upgrade reads it and finds nothing to run. On
// SQLite, user_version follows the ledger's highest number, so that a copy of the older code
// opening the file finds nothing to run either.
import { MIGRATIONS, type MigrationEngine } from './migrations.ts';

export const LEDGER_TABLE = 'schema_migrations';

/** The ledger's CREATE TABLE on `engine`. */
export const ledgerTable = (engine: MigrationEngine) =>
  engine === 'sqlite'
    ? `CREATE TABLE ${LEDGER_TABLE} (
         number INTEGER PRIMARY KEY,
         name TEXT NOT NULL,
         applied_at TEXT NOT NULL
       ) STRICT`
    : `CREATE TABLE ${LEDGER_TABLE} (
         number integer PRIMARY KEY,
         name text COLLATE "C" NOT NULL,
         applied_at text COLLATE "C" NOT NULL
       )`;

/** How many migrations each engine's own numbering had when the one numbering replaced it. */
export const OLD_COUNTS: Readonly<Record<MigrationEngine, number>> = { sqlite: 23, postgres: 18 };

/**
 * The number, in the one numbering, of a database the old code had migrated `oldCount` times on
 * `engine`: that of the engine's `oldCount`-th migration with SQL for it. Throws for a count the
 * old code never recorded (the database is not one of ours, or is newer than it says).
 */
export function numberOfOldCount(engine: MigrationEngine, oldCount: number): number {
  if (!Number.isInteger(oldCount) || oldCount < 0 || oldCount > OLD_COUNTS[engine])
    throw new Error(
      `the database's old migration count (${oldCount}) is not one Localboard ever recorded on ${engine} (0 to ${OLD_COUNTS[engine]})`,
    );
  if (oldCount === 0) return 0;
  let seen = 0;
  for (const [index, migration] of MIGRATIONS.entries())
    if (migration[engine] !== undefined && ++seen === oldCount) return index + 1;
  throw new Error(`no migration ${oldCount} on ${engine}`);
}

export interface LedgerRow {
  number: number;
  name: string;
  applied_at: string;
}

/**
 * The ledger's rows for a database the old code migrated: one a migration up to the number its
 * old count is at. `oldTimes[n - 1]`, when known, is when its engine's n-th migration ran; a
 * migration with no SQL there takes the time of the next one that has (they were done together).
 */
export function ledgerRowsOfOldCount(
  engine: MigrationEngine,
  oldCount: number,
  madeAt: string,
  oldTimes: readonly string[] = [],
): LedgerRow[] {
  const upTo = numberOfOldCount(engine, oldCount);
  const rows: LedgerRow[] = [];
  let seen = 0;
  const pending: number[] = [];
  for (let number = 1; number <= upTo; number++) {
    pending.push(number);
    if (MIGRATIONS[number - 1]![engine] === undefined) continue;
    const at = oldTimes[seen++] ?? madeAt;
    for (const each of pending.splice(0))
      rows.push({ number: each, name: MIGRATIONS[each - 1]!.name, applied_at: at });
  }
  for (const each of pending)
    rows.push({ number: each, name: MIGRATIONS[each - 1]!.name, applied_at: madeAt });
  return rows;
}
