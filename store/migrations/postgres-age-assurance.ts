// The PostgreSQL schema's age assurance migration (SQLite's, sqlite-age-assurance-migrations.ts,
// whose comments say what each column is for). Appended at the end of postgres-migrations.ts's list.
const text = 'text COLLATE "C"';

export const POSTGRES_AGE_ASSURANCE_MIGRATIONS: readonly string[] = [
  `ALTER TABLE accounts ADD COLUMN declared_state ${text};
   UPDATE accounts SET declared_state = (SELECT state FROM member_ads
     WHERE member_ads.account_id = accounts.id ORDER BY member_ads.id LIMIT 1);
   CREATE TABLE age_checks (
     account_id bigint PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
     method ${text} NOT NULL CHECK (method IN ('digital-licence')),
     outcome ${text} NOT NULL CHECK (outcome IN ('passed', 'failed')),
     checked_at ${text} NOT NULL,
     issuing_state ${text}
   );
   CREATE TABLE age_check_requests (
     id ${text} PRIMARY KEY,
     account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     reader_key bytea NOT NULL,
     encryption_info ${text} NOT NULL,
     origin ${text} NOT NULL,
     created_at ${text} NOT NULL,
     expires_at ${text} NOT NULL
   );
   CREATE INDEX age_check_requests_by_account ON age_check_requests(account_id);
   CREATE INDEX age_check_requests_by_expiry ON age_check_requests(expires_at);`,
];
