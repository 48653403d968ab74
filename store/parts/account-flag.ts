// A member's on/off setting stored as 0 or 1 (a moderator's "Show all photos blurred", a member's
// "first messages only from verified members"): off when no row holds it, or when the id could
// name no row.
import { sql, type SelectQueryBuilder } from 'kysely';
import { isStorableId } from '../ids.ts';
import type { Tables } from '../tables.ts';

/** Reads the setting in `column` of the row `rowOf` finds for an account. */
export function accountFlag<TB extends keyof Tables>(
  rowOf: (accountId: number) => SelectQueryBuilder<Tables, TB, object>,
  column: string,
) {
  return async (accountId: number): Promise<boolean> => {
    if (!isStorableId(accountId)) return false;
    const row = await rowOf(accountId)
      .select(sql<number>`${sql.ref(column)}`.as('on'))
      .executeTakeFirst();
    return Number(row?.on ?? 0) === 1;
  };
}
