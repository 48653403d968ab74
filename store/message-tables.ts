// The tables of a member's message settings and their digests of new requests (tables.ts holds
// the others; migrations/conversations.ts says what each column is for).

/** A member's own settings for messages; no row: both off. */
export interface MessageSettingsTable {
  account_id: number;
  /** 1: each new request is mailed at once (else in the daily digest). */
  requests_at_once: number;
  /** 1: "Read" is shown between this member and another who turned it on too. */
  read_receipts: number;
  updated_at: string;
}

/** The daily digest of a member's new requests: when a run last claimed it, when last mailed. */
export interface RequestDigestsTable {
  account_id: number;
  checked_at: string;
  mailed_at: string | null;
}

/** This feature's tables, by name (store/tables.ts's Tables extends it). */
export interface MessageTables {
  message_settings: MessageSettingsTable;
  request_digests: RequestDigestsTable;
}
