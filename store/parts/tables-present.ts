// Which of some tables a database has: the build's read-only snapshot reads databases of any age
// (published-ads.ts, transparency.ts), and a table a later migration makes counts as empty there.
// On PostgreSQL, in the connection's own schema.
import { sql, type Kysely } from 'kysely';
import type { StoreContext } from '../store-context.ts';
import type { Tables } from '../tables.ts';

/** The names of `names` that are tables of the database. */
export async function tablesPresent(
  db: Kysely<Tables>,
  kind: StoreContext['kind'],
  names: readonly string[],
): Promise<Set<string>> {
  const { rows } = await (
    kind === 'postgres'
      ? sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_name IN (${sql.join(names)})`
      : sql<{ name: string }>`SELECT name FROM sqlite_master
          WHERE type = 'table' AND name IN (${sql.join(names)})`
  ).execute(db);
  return new Set(rows.map((row) => row.name));
}
