// npm run moderator -- add EMAIL | remove EMAIL: gives or takes the moderator role, on the database
// at DATABASE_PATH (default data/localboard.sqlite, as the server). See server/moderator-command.ts.
import { relative, resolve } from 'node:path';
import { openDatabase } from '../server/db/database.ts';
import {
  MODERATOR_USAGE,
  moderatorCommand,
  parseModeratorArgs,
} from '../server/moderator-command.ts';

if (!parseModeratorArgs(process.argv.slice(2))) {
  // Nothing to do: the database is not even opened (nor created).
  console.error(MODERATOR_USAGE);
  process.exit(2);
}
const databasePath = resolve(process.env.DATABASE_PATH ?? 'data/localboard.sqlite');
const db = openDatabase(databasePath);
const shown = relative(process.cwd(), databasePath);
const answer = moderatorCommand(
  db,
  process.argv.slice(2),
  shown.startsWith('..') ? databasePath : shown,
);
db.close();
(answer.code === 0 ? console.log : console.error)(answer.line);
process.exitCode = answer.code;
