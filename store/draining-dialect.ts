// Closing a store lets the queries already asked for finish: a Kysely dialect whose driver, when
// destroyed, first waits until every connection asked for has been given back (or refused). Without
// it SQLite's one connection is closed under a query still waiting for it ("The database connection
// is not open"), and PostgreSQL's pool, once ended, leaves its waiting requests to time out. Queries
// asked for after close() began are refused at once by Kysely ("driver has already been
// destroyed"), so closing never waits for new work.
import type { DatabaseConnection, Dialect, Driver } from 'kysely';

export function drainingDialect(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => drainingDriver(dialect.createDriver()),
  };
}

function drainingDriver(driver: Driver): Driver {
  // Connections asked for and not yet given back, and who waits for there to be none.
  let inUse = 0;
  let drained: (() => void) | undefined;
  const givenBack = () => {
    inUse -= 1;
    if (inUse === 0) drained?.();
  };
  return {
    init: () => driver.init(),
    async acquireConnection() {
      inUse += 1;
      try {
        return await driver.acquireConnection();
      } catch (error) {
        givenBack();
        throw error;
      }
    },
    async releaseConnection(connection: DatabaseConnection) {
      try {
        await driver.releaseConnection(connection);
      } finally {
        givenBack();
      }
    },
    beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
    commitTransaction: (connection) => driver.commitTransaction(connection),
    rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
    savepoint: driver.savepoint?.bind(driver),
    rollbackToSavepoint: driver.rollbackToSavepoint?.bind(driver),
    releaseSavepoint: driver.releaseSavepoint?.bind(driver),
    async destroy() {
      if (inUse > 0) await new Promise<void>((resolve) => (drained = resolve));
      await driver.destroy();
    },
  };
}
