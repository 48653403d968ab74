// The operator's backup (`npm run backup -- FILE`, scripts/backup.ts): an online, consistent copy of
// the SQLite database while the server runs on it (the engine's backup: one read snapshot; the
// server writes on meanwhile). The copy is one self-contained file, readable by its owner only,
// and appears whole or not at all (written beside FILE, then renamed over it). An existing FILE is
// kept unless --force. PostgreSQL is backed up with its own tool, pg_dump.
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { openStore, storeLocationFromEnv } from '../../store/open-store.ts';

export interface BackupAnswer {
  /** 0: copied; 1: not copied (why in `line`); 2: usage. */
  code: 0 | 1 | 2;
  line: string;
}

export const BACKUP_USAGE =
  'Usage: npm run backup -- FILE [--force] (an online copy of the SQLite database at DATABASE_PATH; --force replaces FILE)';

export const USE_PG_DUMP =
  'DATABASE_URL is a PostgreSQL database: back it up with pg_dump (pg_dump --format=custom --file=FILE "$DATABASE_URL"); npm run backup copies the SQLite database.';

/** `FILE` and `--force` in any order, or undefined for anything else. */
export function parseBackupArgs(args: readonly string[]) {
  const force = args.includes('--force');
  const rest = args.filter((arg) => arg !== '--force');
  const [file, ...more] = rest;
  if (!file || file.startsWith('-') || more.length > 0) return undefined;
  return { file, force };
}

/** A path as the operator would type it: relative to the working folder when inside it. */
const shown = (path: string, cwd: string) => {
  const inside = relative(cwd, path);
  return inside.startsWith('..') || inside === '' ? path : inside;
};

/** Runs the backup the arguments and environment ask for; never throws. */
export async function backupCommand(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<BackupAnswer> {
  const parsed = parseBackupArgs(args);
  if (!parsed) return { code: 2, line: BACKUP_USAGE };
  const location = storeLocationFromEnv(env);
  if (location.url) return { code: 1, line: USE_PG_DUMP };
  const source = resolve(cwd, location.path!);
  const target = resolve(cwd, parsed.file);
  if (!existsSync(source))
    return {
      code: 1,
      line: `No database at ${shown(source, cwd)} (DATABASE_PATH): nothing to back up.`,
    };
  if (target === source)
    return { code: 1, line: `${shown(target, cwd)} is the database itself: name another file.` };
  if (existsSync(target) && !parsed.force)
    return {
      code: 1,
      line: `${shown(target, cwd)} exists: add --force to replace it, or name another file.`,
    };

  const partial = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
  let store: Awaited<ReturnType<typeof openStore>> | undefined;
  try {
    mkdirSync(dirname(target), { recursive: true });
    // Created first, private: the copy holds what the database holds (password hashes).
    closeSync(openSync(partial, 'w', 0o600));
    store = await openStore({ path: source }, { readOnly: true });
    if (!store.backup) throw new Error('this database has no online backup');
    await store.backup(partial);
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    return { code: 1, line: `The backup failed: ${(error as Error).message}` };
  } finally {
    await store?.close();
  }
  const kib = Math.max(1, Math.round(statSync(target).size / 1024));
  return {
    code: 0,
    line: `Backed up ${shown(source, cwd)} to ${shown(target, cwd)} (${kib.toLocaleString('en-US')} KiB).`,
  };
}
