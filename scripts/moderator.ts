// npm run moderator -- add EMAIL | remove EMAIL: gives or takes the moderator role, on the server's
// database: PostgreSQL at DATABASE_URL, else the SQLite file at DATABASE_PATH (default
// data/localboard.sqlite, as the server). See server/moderation/moderator-command.ts.
import { relative, resolve } from 'node:path';
import {
  MODERATOR_USAGE,
  moderatorCommand,
  parseModeratorArgs,
} from '../server/moderation/moderator-command.ts';
import { openStore, storeLocationFromEnv } from '../store/open-store.ts';
import type { StoreHandle } from '../store/store.ts';

if (!parseModeratorArgs(process.argv.slice(2))) {
  // Nothing to do: the database is not even opened (nor created).
  console.error(MODERATOR_USAGE);
  process.exit(2);
}
const location = storeLocationFromEnv(process.env);
let store: StoreHandle;
try {
  store = await openStore(location);
} catch (error) {
  // Unreachable or unusable: one line, never a stack.
  console.error((error as Error).message);
  process.exit(1);
}
try {
  const answer = await moderatorCommand(store, process.argv.slice(2), whereOf(store));
  (answer.code === 0 ? console.log : console.error)(answer.line);
  process.exitCode = answer.code;
} catch (error) {
  console.error(`The role was not changed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await store.close();
}

/** The database as the answer names it: the file as typed from here, or the URL without its password. */
function whereOf(opened: StoreHandle): string {
  if (!location.path) return opened.describe;
  const path = resolve(location.path);
  const shown = relative(process.cwd(), path);
  return shown.startsWith('..') ? path : shown;
}
