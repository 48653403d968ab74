// The SQLite schema's migration 23 for the CDN's purge budget (docs/product.md section 6, "The site
// in a bucket"), appended to sqlite-migrations.ts's list (at its end: its number is its place
// there). Its twin is postgres-purge-migrations.ts.
//
// - cdn_purge_requests: one row a purge request taken from the budget (store/purge-budget.ts), by
//   whichever instance on the database: goes_at, when it is sent (ISO time; later than now for one
//   waiting its turn). Rows a minute old count no more and are deleted as the next one is taken.
export const PURGE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE cdn_purge_requests (
     id INTEGER PRIMARY KEY,
     goes_at TEXT NOT NULL
   ) STRICT;
   CREATE INDEX cdn_purge_requests_by_time ON cdn_purge_requests(goes_at);`,
];
