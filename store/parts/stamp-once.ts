// A moment that happens to a row once (an email verified, a token used, a reminder claimed, an
// account banned): the row's time column set where it is still NULL. Of any number of such
// updates at once, the database lets exactly one change the row; the caller runs the statement
// (changedOne tells whether this one did) and may narrow it further.
import { sql, type UpdateObject, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { Tables } from '../tables.ts';

/** `update` (of one table) made to set `column` of row `id` to `at`, unless it is set already. */
export function stampOnce<T extends keyof Tables>(
  update: UpdateQueryBuilder<Tables, T, T, UpdateResult>,
  column: keyof Tables[T] & string,
  id: number,
  at: string,
) {
  // A computed key is typed as any string's: the assertion says it is `column`'s.
  return update
    .set({ [column]: at } as UpdateObject<Tables, T>)
    .where(sql.ref('id'), '=', id)
    .where(sql.ref(column), 'is', null);
}
