// SQLite's age assurance migration (store/migrations/age-assurance.ts) on a database with
// accounts and ads: an account that had posted is given its first ad's state as its declared
// state, one that had not stays without; the new tables take their rows and their CHECKs hold.
// (PostgreSQL's twin runs the same UPDATE.)
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { AGE_ASSURANCE } from '../../../store/migrations/age-assurance.ts';
import { migrateSqlite } from '../../../store/sqlite-engine.ts';
import { MIGRATIONS } from '../../../store/migrations/migrations.ts';
import { onPostgres } from '../../helpers/test-store.ts';

/** The version before this migration (it may be renumbered when branches merge). */
const BEFORE_AGE_ASSURANCE = MIGRATIONS.indexOf(AGE_ASSURANCE[0]!);

const account = (id: number) =>
  `INSERT INTO accounts (id, email, password_hash, date_of_birth, terms_accepted_at, created_at)
   VALUES (${id}, 'member-${id}@example.com', 'hash', '1990-01-01', '2026-01-01', '2026-01-01')`;
const ad = (id: number, accountId: number, state: string) =>
  `INSERT INTO member_ads (id, account_id, state, city, age, seeks, title, description, status,
     created_at, submitted_at, updated_at)
   VALUES (${id}, ${accountId}, '${state}', 'A city', 30, 'm4w', 'Title', 'Text', 'live',
     '2026-01-01', '2026-01-01', '2026-01-01')`;

describe.skipIf(onPostgres())('SQLite age assurance migration', () => {
  test("gives an account that posted its first ad's state, and keeps the new rows in shape", () => {
    expect(BEFORE_AGE_ASSURANCE).toBeGreaterThan(0);
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrateSqlite(db, BEFORE_AGE_ASSURANCE);
    db.exec(
      [account(1), account(2), ad(11, 1, 'Texas'), ad(10, 1, 'Mississippi'), ad(12, 1, 'Ohio')]
        .map((statement) => `${statement};`)
        .join('\n'),
    );

    migrateSqlite(db);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT id, declared_state FROM accounts ORDER BY id').all()).toEqual([
      { id: 1, declared_state: 'Mississippi' },
      { id: 2, declared_state: null },
    ]);
    db.exec(`INSERT INTO age_checks (account_id, method, outcome, checked_at, issuing_state)
             VALUES (2, 'digital-licence', 'passed', '2026-02-01T00:00:00.000Z', 'Tennessee')`);
    expect(() =>
      db.exec(`INSERT INTO age_checks (account_id, method, outcome, checked_at)
               VALUES (1, 'selfie', 'passed', '2026-02-01T00:00:00.000Z')`),
    ).toThrow(/CHECK/);
    expect(() =>
      db.exec(`INSERT INTO age_checks (account_id, method, outcome, checked_at)
               VALUES (1, 'digital-licence', 'maybe', '2026-02-01T00:00:00.000Z')`),
    ).toThrow(/CHECK/);
    db.exec('DELETE FROM accounts WHERE id = 2');
    expect(db.prepare('SELECT count(*) AS n FROM age_checks').get()).toEqual({ n: 0 });
    db.close();
  });
});
