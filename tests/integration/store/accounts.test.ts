// The accounts part of the store, on SQLite and (in the postgres suite) on PostgreSQL: ids above
// every deleted account's, one account an address, and two instances signing up at once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isEmailTaken, openAccount } from '../../../server/accounts/new-account.ts';
import type { NewAccount } from '../../../store/parts/accounts.ts';
import {
  onPostgres,
  openTestStore,
  storeForEachTest,
  type TestStore,
} from '../../helpers/test-store.ts';

const t = storeForEachTest();

const NOW = '2026-11-01T00:00:00.000Z';
const account = (email: string): NewAccount => ({
  email,
  passwordHash: 'scrypt$hash',
  dateOfBirth: '1990-01-01',
  termsAcceptedAt: NOW,
  createdAt: NOW,
});

describe('accounts', () => {
  it('opens accounts with ids from 1 and finds them by email and by id', async () => {
    expect(await openAccount(t.store, account('ana@example.com'))).toBe(1);
    expect(await openAccount(t.store, account('ben@example.com'))).toBe(2);
    const ana = {
      id: 1,
      email: 'ana@example.com',
      passwordHash: 'scrypt$hash',
      role: 'member',
      emailVerifiedAt: null,
      bannedAt: null,
    };
    expect(await t.store.accounts.findByEmail('ana@example.com')).toEqual(ana);
    expect(await t.store.accounts.findById(1)).toEqual(ana);
    expect(await t.store.accounts.findByEmail('nobody@example.com')).toBeUndefined();
    expect(await t.store.accounts.findById(3)).toBeUndefined();
    const stored = await t.sql.get(
      'SELECT date_of_birth, terms_accepted_at FROM accounts WHERE id = 2',
    );
    expect(stored).toEqual({ date_of_birth: '1990-01-01', terms_accepted_at: NOW });
  });

  it('answers undefined for a taken address, and changes nothing', async () => {
    expect(await openAccount(t.store, account('ana@example.com'))).toBe(1);
    expect(await openAccount(t.store, account('ana@example.com'))).toBeUndefined();
    expect(await t.sql.all('SELECT id FROM accounts')).toEqual([{ id: 1 }]);
  });

  it('takes an id above every deleted account, so no id names two people', async () => {
    expect(await openAccount(t.store, account('ana@example.com'))).toBe(1);
    await t.sql.run('INSERT INTO deleted_accounts (id, deleted_at) VALUES (?, ?)', 7, NOW);
    expect(await openAccount(t.store, account('ben@example.com'))).toBe(8);
    await t.sql.run('DELETE FROM accounts WHERE id = 8');
    await t.sql.run('INSERT INTO deleted_accounts (id, deleted_at) VALUES (?, ?)', 8, NOW);
    expect(await openAccount(t.store, account('cleo@example.com'))).toBe(9);
  });

  it('tells a banned address apart, and isEmailTaken counts it as taken', async () => {
    await t.sql.run(
      'INSERT INTO banned_emails (email, banned_at) VALUES (?, ?)',
      'x@example.com',
      NOW,
    );
    expect(await t.store.accounts.isBannedEmail('x@example.com')).toBe(true);
    expect(await t.store.accounts.isBannedEmail('y@example.com')).toBe(false);
    expect(await isEmailTaken(t.store, 'x@example.com')).toBe(true);
    expect(await isEmailTaken(t.store, 'y@example.com')).toBe(false);
    await openAccount(t.store, account('y@example.com'));
    expect(await isEmailTaken(t.store, 'y@example.com')).toBe(true);
  });

  it('keeps the first verification time, and sets a new password hash', async () => {
    const id = (await openAccount(t.store, account('ana@example.com')))!;
    await t.store.accounts.markVerified(id, '2026-11-02T00:00:00.000Z');
    await t.store.accounts.markVerified(id, '2026-11-03T00:00:00.000Z');
    await t.store.accounts.setPasswordHash(id, 'scrypt$new');
    expect(await t.store.accounts.findById(id)).toMatchObject({
      emailVerifiedAt: '2026-11-02T00:00:00.000Z',
      passwordHash: 'scrypt$new',
    });
  });
});

// Several instances share a database on PostgreSQL only; a SQLite file has one server. (Two
// engines on one file in one process would wait for each other synchronously: a test artifact.)
describe.runIf(onPostgres())('accounts opened at once on two instances of one database', () => {
  let other: TestStore;
  beforeEach(async () => {
    other = await openTestStore(t.dir);
  });
  afterEach(() => other.store.close());

  it('never take one id: every address gets an account of its own', async () => {
    const emails = Array.from({ length: 30 }, (_, index) => `member-${index}@example.com`);
    const ids = await Promise.all(
      emails.map((email, index) => openAccount((index % 2 ? other : t).store, account(email))),
    );
    expect([...ids].sort((a, b) => a! - b!)).toEqual(emails.map((_, index) => index + 1));
  });

  it('give one address one account, the others undefined', async () => {
    const ids = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        openAccount((index % 2 ? other : t).store, account('same@example.com')),
      ),
    );
    expect(ids.filter((id) => id !== undefined)).toEqual([1]);
  });
});
