// What a rate limit counts (server/messages/limits.ts): when a member did something lately.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Tables } from '../tables.ts';

/**
 * When a member did their newest `count` rows after `since`, newest first: the times in column
 * `at` of the rows `rowsOf` gives for the member.
 */
export function timesSince<TB extends keyof Tables>(
  rowsOf: (memberId: number) => SelectQueryBuilder<Tables, TB, object>,
  at: string,
) {
  const time = sql<string>`${sql.ref(at)}`;
  return async (memberId: number, since: string, count: number): Promise<string[]> => {
    const found = await rowsOf(memberId)
      .select(time.as('at'))
      .where(time, '>', since)
      .orderBy(time, 'desc')
      .limit(count)
      .execute();
    return found.map((row) => row.at);
  };
}
