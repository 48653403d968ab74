// `count(*)` cast to an integer and typed as a number, alike on SQLite and PostgreSQL: one
// expression for the store's conversation parts (conversation-messages.ts, conversation-inbox.ts)
// rather than one in each.
import { sql } from 'kysely';

export const rowCount = sql<number>`cast(count(*) as integer)`;
