// Where the dev server (`npm run dev`) keeps its data: a database of its own (DATABASE_PATH,
// default data/dev.sqlite, so that trying things out never touches the server's
// data/localboard.sqlite) and the mail outbox (MAIL_OUTBOX_DIR, default data/outbox/).
import { resolve } from 'node:path';

export const devDatabasePath = (root: string) =>
  resolve(root, process.env.DATABASE_PATH ?? 'data/dev.sqlite');

export const devOutboxDir = (root: string) =>
  resolve(root, process.env.MAIL_OUTBOX_DIR ?? 'data/outbox');
