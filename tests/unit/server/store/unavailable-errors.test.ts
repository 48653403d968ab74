// Which errors mean "the database cannot be used for now" (503, try again) rather than a bug (500):
// the engines' isUnavailable, on the shapes node-postgres and better-sqlite3 throw. The real thing
// is in tests/integration/operations (PostgreSQL stopped, SQLite locked).
import { describe, expect, it } from 'vitest';
import { isPostgresUnavailable } from '../../../../store/postgres-engine.ts';
import { isSqliteUnavailable } from '../../../../store/sqlite-engine.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('PostgreSQL: unavailable', () => {
  it.each([
    ['refused (every address)', new AggregateError([withCode('', 'ECONNREFUSED')], '')],
    ['refused', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['reset', withCode('read ECONNRESET', 'ECONNRESET')],
    ['host unknown', withCode('getaddrinfo ENOTFOUND db', 'ENOTFOUND')],
    [
      'shut down by an administrator',
      withCode('terminating connection due to administrator command', '57P01'),
    ],
    [
      'crashed',
      withCode('terminating connection because of crash of another server process', '57P02'),
    ],
    ['starting up', withCode('the database system is starting up', '57P03')],
    ['connection exception', withCode('connection failure', '08006')],
    ['too many connections', withCode('sorry, too many clients already', '53300')],
    ['lost mid-query', new Error('Connection terminated unexpectedly')],
    ['connect timed out', new Error('timeout exceeded when trying to connect')],
    ['connect timed out (client)', new Error('Connection terminated due to connection timeout')],
    ['wrapped', new Error('query failed', { cause: withCode('read ECONNRESET', 'ECONNRESET') })],
  ])('%s', (_, error) => {
    expect(isPostgresUnavailable(error)).toBe(true);
  });
});

describe('PostgreSQL: our own errors stay errors', () => {
  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a syntax error', withCode('syntax error at or near "SELEC"', '42601')],
    ['no such table', withCode('relation "sessions" does not exist', '42P01')],
    ['a pool closed by us', new Error('Cannot use a pool after calling end on the pool')],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s', (_, error) => {
    expect(isPostgresUnavailable(error)).toBe(false);
  });
});

describe('SQLite', () => {
  it.each([
    ['busy past the timeout', withCode('database is locked', 'SQLITE_BUSY'), true],
    ['busy (snapshot)', withCode('database is locked', 'SQLITE_BUSY_SNAPSHOT'), true],
    ['a disk error', withCode('disk I/O error', 'SQLITE_IOERR_WRITE'), true],
    ['a full disk', withCode('database or disk is full', 'SQLITE_FULL'), true],
    [
      'a constraint',
      withCode('UNIQUE constraint failed: accounts.email', 'SQLITE_CONSTRAINT_UNIQUE'),
      false,
    ],
    ['SQL', withCode('no such table: sessions', 'SQLITE_ERROR'), false],
    ['closed by us', new TypeError('The database connection is not open'), false],
  ])('%s: %s', (_, error, unavailable) => {
    expect(isSqliteUnavailable(error)).toBe(unavailable);
  });
});
