// Migration 21: age assurance (docs/product.md section 6, "Age assurance"). migrations.ts says
// how migrations run.
//
// - accounts.declared_state: the state the member says they live in (a full state name, as
//   content/states/ names it), asked at sign-up and on /account; NULL: not said. An account that
//   posted before is given its first ad's state, as one that posts later is (server/age-assurance/).
// - age_checks: one row a member whose age was checked: how (method), what the licence answered
//   (outcome), when, and the issuing state read from the issuer's certificate. Nothing else of the
//   licence or its answer is kept: no name, no birth date, no image, no response.
// - age_check_requests: a request the server sent to a member's wallet, until its answer comes
//   back or it expires (a few minutes): the ephemeral reader key the answer is encrypted to, the
//   EncryptionInfo (and its nonce) and the page's origin that the session transcript is made of.
//   Taken (deleted) by the answer, so an answer is used once.
import type { Migration } from './migration.ts';
import { POSTGRES_TYPES } from './schema-sql.ts';

const { text } = POSTGRES_TYPES;

export const AGE_ASSURANCE: readonly Migration[] = [
  {
    name: 'age-assurance',
    sqlite: `ALTER TABLE accounts ADD COLUMN declared_state TEXT;
   UPDATE accounts SET declared_state = (SELECT state FROM member_ads
     WHERE member_ads.account_id = accounts.id ORDER BY member_ads.id LIMIT 1);
   CREATE TABLE age_checks (
     account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
     method TEXT NOT NULL CHECK (method IN ('digital-licence')),
     outcome TEXT NOT NULL CHECK (outcome IN ('passed', 'failed')),
     checked_at TEXT NOT NULL,
     issuing_state TEXT
   ) STRICT;
   CREATE TABLE age_check_requests (
     id TEXT PRIMARY KEY,
     account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     reader_key BLOB NOT NULL,
     encryption_info TEXT NOT NULL,
     origin TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL
   ) STRICT;
   CREATE INDEX age_check_requests_by_account ON age_check_requests(account_id);
   CREATE INDEX age_check_requests_by_expiry ON age_check_requests(expires_at);`,
    postgres: `ALTER TABLE accounts ADD COLUMN declared_state ${text};
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
  },
];

// Migration 25: the age check over OpenID4VP as well (docs/product.md section 6, "Age
// assurance"). migrations.ts says how migrations run.
//
// - age_check_requests.openid4vp_key: the private scalar (32 bytes) of the request's second
//   ephemeral P-256 key, the one its OpenID4VP request names for the wallet's encrypted answer
//   (JWE, ECDH-ES), kept apart from the reader key of org-iso-mdoc so that no key serves two
//   schemes. NULL for a request made before (a few minutes' worth): answered over OpenID4VP, it
//   is refused as not made for that answer.
export const AGE_CHECK_OPENID4VP: readonly Migration[] = [
  {
    name: 'age check over openid4vp',
    sqlite: `ALTER TABLE age_check_requests ADD COLUMN openid4vp_key BLOB;`,
    postgres: `ALTER TABLE age_check_requests ADD COLUMN openid4vp_key bytea;`,
  },
];
