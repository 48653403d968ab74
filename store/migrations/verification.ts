// The SQLite schema's migration 18 (sqlite-migrations.ts says how migrations run; appended to its
// list after the safety migrations): verified members (docs/product.md section 6, "Verified
// members"). Its twin is postgres-verification-migrations.ts.
//
// - verifications: one row a challenge a member asked for, and what became of it. status: 'open'
//   (a code and a pose set, no selfie yet; answerable until expires_at), 'submitted' (a selfie
//   waits for a moderator), 'approved', 'refused', 'expired' (never answered), 'withdrawn' (the
//   member withdrew an approved verification). code: the code in clear while the member and the
//   reviewing moderator need it, NULL once decided; code_hash (SHA-256, hex) is kept. uploads:
//   selfies sent for it (refused ones too), at most UPLOADS_PER_CHALLENGE. selfie_key: the
//   selfie's bytes in the photo storage (never published: no photo_variants row names it), NULL
//   once deleted (selfie_deleted_at): at approval, 30 days after a refusal unless an appeal is
//   open, with the account. selfie_phash: the selfie's perceptual hash, kept to refuse its reuse.
//   level: 'person' or 'photos' once approved; photo_ids: the member's photos the moderator saw
//   were the same person (JSON array). decided_by: the moderator (copied, no reference);
//   statement_id: a refusal's statement of reasons (decision_statements).
// - decision_statements.kind gains 'verification-refused'. SQLite cannot change a CHECK in place,
//   and foreign keys cannot be turned off inside a migration's transaction: the table is made again
//   with its rows, and appeals (its one child) with it: appeals' rows wait in a table without a
//   foreign key while their parent is replaced, then come back, checked against the new one, ids
//   kept.
// - accounts.verified_first_only: 1 when the member accepts first messages only from verified
//   members (section 7).
import { APPEALS_TABLE, decisionStatementsTable } from './safety.ts';

export const VERIFICATION_MIGRATIONS: readonly string[] = [
  `CREATE TABLE verifications (
     id INTEGER PRIMARY KEY,
     account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     status TEXT NOT NULL CHECK (status IN ('open', 'submitted', 'approved', 'refused', 'expired',
       'withdrawn')),
     code TEXT,
     code_hash TEXT NOT NULL,
     pose TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     uploads INTEGER NOT NULL DEFAULT 0,
     submitted_at TEXT,
     selfie_key TEXT,
     selfie_width INTEGER,
     selfie_height INTEGER,
     selfie_phash TEXT,
     selfie_deleted_at TEXT,
     level TEXT CHECK (level IN ('person', 'photos')),
     photo_ids TEXT NOT NULL DEFAULT '[]',
     decided_at TEXT,
     decided_by INTEGER,
     refusal_reason TEXT,
     statement_id INTEGER,
     withdrawn_at TEXT
   ) STRICT;
   CREATE INDEX verifications_by_account ON verifications(account_id, created_at);
   CREATE INDEX verifications_in_review ON verifications(submitted_at) WHERE status = 'submitted';
   CREATE INDEX verifications_by_selfie ON verifications(selfie_key) WHERE selfie_key IS NOT NULL;
   ALTER TABLE accounts ADD COLUMN verified_first_only INTEGER NOT NULL DEFAULT 0
     CHECK (verified_first_only IN (0, 1));
   ${decisionStatementsTable(
     'decision_statements_new',
     ", 'verification-refused'",
     ',\n     lifted_at TEXT,\n     lifted_for INTEGER',
   )}
   INSERT INTO decision_statements_new (id, log_id, account_id, kind, ad_id, photo_id, reason_key,
     clause, facts, trigger, automated_detection, automated_decision, decided_by, decided_at,
     content_at, appeal_until, lifted_at, lifted_for)
   SELECT id, log_id, account_id, kind, ad_id, photo_id, reason_key, clause, facts, trigger,
     automated_detection, automated_decision, decided_by, decided_at, content_at, appeal_until,
     lifted_at, lifted_for FROM decision_statements;
   CREATE TEMP TABLE appeals_kept AS SELECT * FROM appeals;
   DROP TABLE appeals;
   DROP TABLE decision_statements;
   ALTER TABLE decision_statements_new RENAME TO decision_statements;
   ${APPEALS_TABLE}
   INSERT INTO appeals (id, statement_id, account_id, text, filed_at, outcome, reply, decided_by,
     decided_at)
   SELECT id, statement_id, account_id, text, filed_at, outcome, reply, decided_by, decided_at
     FROM appeals_kept;
   DROP TABLE appeals_kept;
   CREATE INDEX appeals_open ON appeals(filed_at) WHERE outcome IS NULL;
   CREATE INDEX decision_statements_by_account ON decision_statements(account_id, decided_at);
   CREATE INDEX decision_statements_by_at ON decision_statements(decided_at);
   CREATE INDEX decision_statements_by_ad ON decision_statements(ad_id) WHERE ad_id IS NOT NULL;`,
];
