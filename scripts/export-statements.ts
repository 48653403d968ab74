// npm run export:statements -- --since YYYY-MM-DD [--out FILE]: the statements of reasons decided
// since that day, as JSON lines in the EU's DSA transparency database's fields, without personal
// data (server/moderation/dsa-export.ts), from the server's database: PostgreSQL at DATABASE_URL,
// else the SQLite file at DATABASE_PATH (default data/localboard.sqlite). The clause links use
// PUBLIC_BASE_URL, else the site's baseUrl (content/site.md, as the build compiled it).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import {
  EXPORT_USAGE,
  exportStatements,
  parseExportArgs,
} from '../server/moderation/dsa-export.ts';
import { openStore, storeLocationFromEnv } from '../store/open-store.ts';
import { getSite } from '../core/content/index.ts';

const args = parseExportArgs(process.argv.slice(2));
if (!args) {
  console.error(EXPORT_USAGE);
  process.exit(2);
}
let baseUrl: string;
let store;
try {
  baseUrl = process.env.PUBLIC_BASE_URL ?? getSite().baseUrl;
  store = await openStore(storeLocationFromEnv(process.env));
} catch (error) {
  // No compiled content, or a database that cannot be opened: one line, never a stack.
  console.error((error as Error).message);
  process.exit(1);
}
const output = args.out ? createWriteStream(args.out) : process.stdout;
try {
  const count = await exportStatements(store, args.since, baseUrl, async (line) => {
    if (!output.write(line)) await once(output, 'drain');
  });
  if (args.out) output.end();
  console.error(`${count} statements of reasons since ${args.since}.`);
} finally {
  await store.close();
}
