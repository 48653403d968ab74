// `npm run dev`'s first step, and the dev server's publish (server/dev/dev-publisher.ts): the
// content compiled as `npm run compile:content` does, with the live member ads of the dev database.
import { join } from 'node:path';
import { devDatabasePath } from '../server/dev/dev-data.ts';

process.env.DATABASE_PATH = devDatabasePath(join(import.meta.dirname, '..'));
// The dev server's own SQLite database, whatever the shell names for a server.
delete process.env.DATABASE_URL;
await import('./compile-content.ts');
