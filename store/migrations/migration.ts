// What a migration is (migrations.ts lists them): one step of the schema, numbered by its place in
// the one list both engines share, with its SQL for each engine side by side.

export interface Migration {
  /** What it makes, as each database's ledger records it beside its number (`push`). */
  name: string;
  /** Its SQL on SQLite; absent: nothing to do there (the step is still recorded as done). */
  sqlite?: string;
  /** Its SQL on PostgreSQL; absent: nothing to do there. */
  postgres?: string;
}

export type MigrationEngine = 'sqlite' | 'postgres';
