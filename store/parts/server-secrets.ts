// Random keys made once per database (table server_secrets), for keyed hashes that must stay the
// same across restarts and across the instances sharing the database: a visitor's reporter key is
// the HMAC of their address with one of them (server/reports/), so the address is never stored.
import { randomBytes } from 'node:crypto';
import type { StoreContext } from '../store-context.ts';

export interface SecretStore {
  /** The secret called `name`: 32 random bytes, made the first time any instance asks for it. */
  get(name: string): Promise<Buffer>;
}

export function secretStore({ db }: StoreContext): SecretStore {
  return {
    async get(name) {
      // Two instances making it at the same moment: one insert wins (the other does nothing, on
      // PostgreSQL once the first has committed), and both read the winner's key back.
      await db
        .insertInto('server_secrets')
        .values({ name, value: randomBytes(32) })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const { value } = await db
        .selectFrom('server_secrets')
        .select('value')
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      return Buffer.from(value);
    },
  };
}
