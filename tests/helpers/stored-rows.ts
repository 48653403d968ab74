// Raw SQL in a test outside the store's contract tests (tests/integration/store/) and the
// migrations' tests goes through this file, so that a reader sees why it is there. Two reasons
// only (docs/conventions.md, Tests):
// - storedRows / storedRow read what no member, moderator or visitor can see: what was kept after
//   a deletion, hashes, tokens, audit and moderation log rows, what a purge removed, a queue.
//   What a person can see (an ad's status on My ads, a message in a conversation, a count on a
//   page) is read from the page or the API, as they would.
// - the named writers below make a state the product cannot make itself (a row as an older
//   version stored it, bytes lost outside the product). A state the product can make goes through
//   the domain, the HTTP API or the helpers that call them; time passing goes through the one
//   clock (tests/helpers/clock.ts).
import type { TestSql } from './test-store.ts';

/** Whatever holds the test's rows: a test app, a test store, an e2e server, or their rows. */
type HasRows = { sql: TestSql } | TestSql;

const sqlOf = (t: HasRows): TestSql => ('sql' in t ? t.sql : t);

/** Rows no member can see (see above), read straight from the store. */
export const storedRows = <Row = Record<string, unknown>>(
  t: HasRows,
  query: string,
  ...params: unknown[]
): Promise<Row[]> => sqlOf(t).all<Row>(query, ...params);

/** The first of storedRows, or undefined. */
export const storedRow = <Row = Record<string, unknown>>(
  t: HasRows,
  query: string,
  ...params: unknown[]
): Promise<Row | undefined> => sqlOf(t).get<Row>(query, ...params);

/** A photo as stored before scoring existed (or whose scoring failed): no score. */
export async function photoStoredBeforeScoring(t: HasRows, photoId: number): Promise<void> {
  await sqlOf(t).run(
    'UPDATE photos SET explicit_score = NULL, sexy_score = NULL WHERE id = ?',
    photoId,
  );
}

/** A photo as stored before the duplicate index existed: none of its rows in the index. */
export async function photoStoredBeforeTheDuplicateIndex(
  t: HasRows,
  photoId: number,
): Promise<void> {
  await sqlOf(t).run('DELETE FROM photo_hash_chunks WHERE photo_id = ?', photoId);
}

/** Stored bytes lost outside the product (no path deletes a used photo's bytes). */
export async function photoBytesLost(t: HasRows, keys: string[]): Promise<void> {
  await sqlOf(t).run(
    `DELETE FROM photo_blobs WHERE key IN (${keys.map(() => '?').join(', ')})`,
    ...keys,
  );
}

/**
 * A member ad put back to a status no route gives it from where it is (a deleted ad live again,
 * or back in review), as a new revision: for the tests that watch an ad's pages come and go.
 */
export async function adStatusNoRouteGives(
  t: HasRows,
  adId: number,
  status: string,
  at: string,
): Promise<void> {
  await sqlOf(t).run(
    'UPDATE member_ads SET status = ?, updated_at = ?, revision = revision + 1 WHERE id = ?',
    status,
    at,
    adId,
  );
}
