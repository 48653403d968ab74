// The CDN's purge budget, one for every instance on the database (table cdn_purge_requests;
// docs/product.md section 6, "The site in a bucket"): each purge request, from whichever instance,
// takes its time from here, so that the CDN sees at most its limit in any minute however many
// instances purge. The rule is core/purge-budget.ts's; this part keeps the times and lets one
// taker at a time read and add to them.
//
// Not rate-limiter-flexible (which the engines' `rateLimiter` uses): its limiters count fixed
// windows, which let twice the limit through across a window's edge, answer "refused" rather
// than a time to go at, and read the machine's clock, where a test sets its own.
import { sql } from 'kysely';
import { nextPurgeAt, PURGE_WINDOW_MS } from '../../core/purge-budget.ts';
import type { StoreContext } from '../store-context.ts';

export interface PurgeBudgetStore {
  /**
   * Takes a purge request from the budget: answers when it may be sent (ms since the epoch, `now`
   * or later), no more than `perMinute` requests taken by any instance being due in any minute.
   * The time is kept for it whether or not it is sent: the caller waits until then, then sends.
   * Not within a unit of work (it is one of its own).
   */
  take(perMinute: number, now: number): Promise<number>;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function purgeBudgetStore({ db, kind }: StoreContext): PurgeBudgetStore {
  return {
    take(perMinute, now) {
      return db.transaction().execute(async (trx) => {
        // One taker at a time, in every instance: SQLite's transactions hold the one writer from
        // their start (sqlite-engine.ts); on PostgreSQL this lock, which only takers ask for,
        // makes the next one wait until this one commits and then read its time.
        if (kind === 'postgres')
          await sql`LOCK TABLE cdn_purge_requests IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
        // A time a minute before `now` limits nothing from now on.
        await trx
          .deleteFrom('cdn_purge_requests')
          .where('goes_at', '<=', iso(now - PURGE_WINDOW_MS))
          .execute();
        const latest = await trx
          .selectFrom('cdn_purge_requests')
          .select('goes_at')
          .orderBy('goes_at', 'desc')
          .limit(perMinute)
          .execute();
        const at = nextPurgeAt(
          latest.map((row) => Date.parse(row.goes_at)),
          perMinute,
          now,
        );
        await trx
          .insertInto('cdn_purge_requests')
          .values({ goes_at: iso(at) })
          .execute();
        return at;
      });
    },
  };
}
