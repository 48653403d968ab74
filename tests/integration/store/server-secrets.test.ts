// The secrets part of the store, on SQLite and (in the postgres suite) on PostgreSQL: a random key
// made once per database, the same for every instance on it, however many make it at once.
import { describe, expect, it } from 'vitest';
import { openTestStore, storeForEachTest } from '../../helpers/test-store.ts';

const t = storeForEachTest();

describe('server secrets', () => {
  it('makes 32 random bytes once per name, and answers them again after a restart', async () => {
    const key = await t.store.secrets.get('reporter-key');
    expect(key).toBeInstanceOf(Buffer);
    expect(key).toHaveLength(32);
    expect(await t.store.secrets.get('reporter-key')).toEqual(key);
    expect(await t.store.secrets.get('another')).not.toEqual(key);
    await t.store.close();
    Object.assign(t, await openTestStore(t.dir));
    expect(await t.store.secrets.get('reporter-key')).toEqual(key);
  });

  it('two instances making it at the same moment end with the same key', async () => {
    const other = await openTestStore(t.dir);
    try {
      for (let round = 0; round < 10; round += 1) {
        const name = `race-${round}`;
        const keys = await Promise.all(
          [t, other, t, other].map((instance) => instance.store.secrets.get(name)),
        );
        expect(new Set(keys.map((key) => key.toString('hex'))).size).toBe(1);
      }
      const rows = await t.sql.get<{ n: number }>(
        "SELECT cast(count(*) as integer) AS n FROM server_secrets WHERE name LIKE 'race-%'",
      );
      expect(Number(rows!.n)).toBe(10);
    } finally {
      await other.store.close();
    }
  });
});
