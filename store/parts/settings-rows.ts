// A member's own settings, one row an account once they saved any (message_settings,
// reach_settings, push_settings): read back whole, or written whole over the last. What each
// setting means is its part's (message-settings.ts, reach-settings.ts, pushes.ts).
import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Tables } from '../tables.ts';

export type SettingsTable = 'message_settings' | 'reach_settings' | 'push_settings';

/** The member's row, or undefined when they saved none. */
export async function settingsRowOf<T extends SettingsTable>(
  db: Kysely<Tables>,
  table: T,
  accountId: number,
): Promise<Selectable<Tables[T]> | undefined> {
  // Kysely cannot narrow a union of tables; the three share the account_id key.
  const row = await db
    .selectFrom(table as SettingsTable)
    .selectAll()
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row as Selectable<Tables[T]> | undefined;
}

/** Writes the member's row: made the first time, every column given replaced after. */
export async function saveSettingsRow<T extends SettingsTable>(
  db: Kysely<Tables>,
  table: T,
  accountId: number,
  values: Omit<Updateable<Tables[T]>, 'account_id'>,
): Promise<void> {
  await db
    .insertInto(table as SettingsTable)
    .values({ account_id: accountId, ...values } as never)
    .onConflict((oc) => oc.column('account_id').doUpdateSet(values as never))
    .execute();
}
