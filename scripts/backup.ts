// npm run backup -- FILE [--force]: an online, consistent copy of the SQLite database at
// DATABASE_PATH (default data/localboard.sqlite, as the server), while the server runs. With
// DATABASE_URL (PostgreSQL) it says to use pg_dump. See server/operations/backup.ts.
import { backupCommand } from '../server/operations/backup.ts';

const answer = await backupCommand(process.argv.slice(2));
(answer.code === 0 ? console.log : console.error)(answer.line);
process.exitCode = answer.code;
