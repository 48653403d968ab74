// npm run shield:labels -- [--out FILE] [--dry-run]: the texts moderators' decisions left to label
// (a refusal or warning marked mistaken, a first message of an account banned for fraud), as CSV
// lines of the scam shield's corpus for an editor to review, from the server's database:
// PostgreSQL at DATABASE_URL, else the SQLite file at DATABASE_PATH (default
// data/localboard.sqlite). See server/moderation/shield-labels.ts.
import { writeFile } from 'node:fs/promises';
import {
  exportShieldLabels,
  parseShieldLabelsArgs,
  SHIELD_LABELS_USAGE,
  shieldLabelsNote,
} from '../server/moderation/shield-labels.ts';
import { openStore, storeLocationFromEnv } from '../store/open-store.ts';
import type { StoreHandle } from '../store/store.ts';

const args = parseShieldLabelsArgs(process.argv.slice(2));
if (!args) {
  console.error(SHIELD_LABELS_USAGE);
  process.exit(2);
}
let store: StoreHandle;
try {
  store = await openStore(storeLocationFromEnv(process.env));
} catch (error) {
  // Unreachable or unusable: one line, never a stack.
  console.error((error as Error).message);
  process.exit(1);
}
try {
  const write = (csv: string) =>
    args.out
      ? writeFile(args.out, csv)
      : new Promise<void>((done) => process.stdout.write(csv, () => done()));
  const lines = await exportShieldLabels(store, { dryRun: args.dryRun, now: new Date() }, write);
  console.error(shieldLabelsNote(lines, args.dryRun));
} catch (error) {
  console.error(`Nothing was marked exported: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await store.close();
}
