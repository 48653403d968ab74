import type { Kysely } from 'kysely';
import type { StoreEngine } from './engine.ts';
import type { Tables } from './tables.ts';

/** What each part of the store is built on: the engine's queries, or a unit of work's. */
export interface StoreContext {
  db: Kysely<Tables>;
  kind: StoreEngine['kind'];
}
