// The table of the CDN's purge budget (store/migrations/purge-budget.ts says what each column is for),
// as tables.ts lists it: apart, so that tables.ts stays short.
import type { Generated } from 'kysely';

export interface CdnPurgeRequestsTable {
  id: Generated<number>;
  goes_at: string;
}

/** The purge budget's table, as Tables (tables.ts) holds it. */
export interface PurgeTables {
  cdn_purge_requests: CdnPurgeRequestsTable;
}
