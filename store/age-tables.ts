// The tables of age assurance (migrations/age-assurance.ts says what each column is for),
// as tables.ts lists them: apart, so that tables.ts stays short.

/** How a member's age was checked: a digital driver's licence (ISO 18013-5 mDL). */
export type AgeCheckMethod = 'digital-licence';
/** A licence that answered "18 or over" (passed), or one that answered no (failed). */
export type AgeCheckOutcome = 'passed' | 'failed';

export interface AgeChecksTable {
  account_id: number;
  method: AgeCheckMethod;
  outcome: AgeCheckOutcome;
  checked_at: string;
  /** The issuing state's name, from the issuer's certificate; null when it names none we know. */
  issuing_state: string | null;
}

export interface AgeCheckRequestsTable {
  id: string;
  account_id: number;
  /** The request's ephemeral reader key: the private scalar of a P-256 key, 32 bytes. */
  reader_key: Buffer;
  /** The EncryptionInfo sent to the wallet, base64url of its CBOR (with the nonce). */
  encryption_info: string;
  /**
   * The request's second ephemeral key, for an answer over OpenID4VP (JWE, ECDH-ES): the private
   * scalar of a P-256 key, 32 bytes; null in a request made before migration 25.
   */
  openid4vp_key: Buffer | null;
  /** The page's origin, which the wallet's answer is bound to. */
  origin: string;
  created_at: string;
  expires_at: string;
}

/** This feature's tables, by name (store/tables.ts's Tables extends it). */
export interface AgeTables {
  age_checks: AgeChecksTable;
  age_check_requests: AgeCheckRequestsTable;
}
