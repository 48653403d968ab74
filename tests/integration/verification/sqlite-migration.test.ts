// SQLite's verification migration, 19 (store/migrations/verification.ts) on a database that has
// statements of reasons and appeals: decision_statements is made again for its new kind, and
// appeals, its child, with it. Every row comes back with its id, the foreign key is still there
// and enforced, and the new kind is accepted. (PostgreSQL changes the CHECK in place.)
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { migrateSqlite } from '../../../store/sqlite-engine.ts';
import { MIGRATIONS } from '../../../store/migrations/migrations.ts';
import { VERIFICATION } from '../../../store/migrations/verification.ts';
import { onPostgres } from '../../helpers/test-store.ts';

/** The version before migration 19, this file's (later migrations come after it). */
const BEFORE_VERIFICATION = MIGRATIONS.indexOf(VERIFICATION[0]!);

const statement = (id: number, logId: number, kind: string) =>
  `INSERT INTO decision_statements (id, log_id, account_id, kind, reason_key, clause, facts,
     trigger, automated_detection, automated_decision, decided_at, appeal_until)
   VALUES (${id}, ${logId}, 7, '${kind}', 'spam', '4.5', '{}', 'moderator', 0, 0, '2026-01-01',
     '2026-07-01')`;

describe.skipIf(onPostgres())('SQLite migration 19', () => {
  test('keeps statements and their appeals, ids and foreign key, and takes the new kind', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    expect(BEFORE_VERIFICATION).toBe(18);
    migrateSqlite(db, BEFORE_VERIFICATION);
    db.exec(`${statement(5, 1, 'ad-rejected')}; ${statement(9, 2, 'photo-removed')};
      INSERT INTO appeals (id, statement_id, account_id, text, filed_at, outcome)
      VALUES (3, 5, 7, 'Please look again.', '2026-01-02', 'upheld');`);

    migrateSqlite(db);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT id, kind FROM decision_statements ORDER BY id').all()).toEqual([
      { id: 5, kind: 'ad-rejected' },
      { id: 9, kind: 'photo-removed' },
    ]);
    expect(db.prepare('SELECT id, statement_id, outcome FROM appeals').all()).toEqual([
      { id: 3, statement_id: 5, outcome: 'upheld' },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.exec(statement(10, 3, 'verification-refused'));
    expect(() =>
      db.exec(`INSERT INTO appeals (statement_id, account_id, text, filed_at)
               VALUES (99, 7, 'No such statement.', '2026-01-03')`),
    ).toThrow(/FOREIGN KEY/);
    expect(() => db.exec(statement(11, 4, 'something-else'))).toThrow(/CHECK/);
    db.close();
  });
});
