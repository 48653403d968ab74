// Counting rows, alike on SQLite and PostgreSQL: `count(*)` cast to an integer and typed as a
// number, and how many rows one update, delete or insert changed (the drivers answer a bigint,
// under a name that differs by statement). One kernel for every store part rather than
// `Number(result.num…Rows)` in each.
import type { DeleteResult, InsertResult, UpdateResult } from 'kysely';
import { sql } from 'kysely';

export const rowCount = sql<number>`cast(count(*) as integer)`;

/** A statement that changes rows, not yet run: an update, a delete or an insert. */
interface RowChange {
  executeTakeFirst(): Promise<UpdateResult | DeleteResult | InsertResult>;
}

/** Runs the statement; how many rows it changed (inserted, updated or deleted). */
export async function rowsChanged(statement: RowChange): Promise<number> {
  const result = await statement.executeTakeFirst();
  if ('numDeletedRows' in result) return Number(result.numDeletedRows);
  if ('numUpdatedRows' in result) return Number(result.numUpdatedRows);
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/**
 * Runs the statement; whether it changed exactly one row: the row named was there, in the state
 * the statement asked for (a claim, a revision), and nobody changed it first.
 */
export const changedOne = async (statement: RowChange) => (await rowsChanged(statement)) === 1;
