// The one temporary folder of a test run: every temporary file the tests and what they start
// write (copied sites, built sites, SQLite and PostgreSQL data, Chromium profiles) goes under it,
// through TMPDIR, and it is removed when the run ends, leftovers included. It is made in memory
// (tmpfs: /dev/shm) when there is one with room: on this machine copying the built site (33,000
// files) takes 1 s there against 10–36 s on disk, and the tests copy or build whole sites dozens of
// times. Without such a tmpfs (or with a small one, as a container's 64 MB /dev/shm) it is made in
// the system's temporary folder.
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TMPFS = '/dev/shm';
const PREFIX = 'localboard-test-';
/** Names the process a folder belongs to: a run stopped hard (SIGKILL) leaves its folder behind. */
const OWNER_FILE = 'owner.pid';
/** The most a whole run has held at once is about 0.9 GiB (docs/benchmarks.md). */
const TMPFS_ROOM_NEEDED = 4 * 2 ** 30;

function tmpfsRoom() {
  if (!existsSync(TMPFS)) return 0;
  try {
    const stats = statfsSync(TMPFS);
    return stats.bavail * stats.bsize;
  } catch {
    return 0;
  }
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Removes the folders of earlier runs whose process is gone (in memory, they would hold it). */
function removeAbandonedFolders(parent) {
  if (!existsSync(parent)) return;
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(PREFIX)) continue;
    const folder = join(parent, name);
    let owner = NaN;
    try {
      owner = Number(readFileSync(join(folder, OWNER_FILE), 'utf8'));
    } catch {
      continue; // not one of ours, or one being made this instant
    }
    if (Number.isInteger(owner) && !isRunning(owner))
      rmSync(folder, { recursive: true, force: true });
  }
}

/** Makes the run's folder; `where` says in a few words where it is and why. */
export function makeTestTemporaryFolder() {
  removeAbandonedFolders(TMPFS);
  const room = tmpfsRoom();
  const inMemory = room >= TMPFS_ROOM_NEEDED;
  const dir = mkdtempSync(join(inMemory ? TMPFS : tmpdir(), PREFIX));
  writeFileSync(join(dir, OWNER_FILE), String(process.pid));
  // As /tmp itself: the throwaway PostgreSQL runs as its own user and keeps its data in here.
  chmodSync(dir, 0o1777);
  const gib = (bytes) => `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  const where = inMemory
    ? `in memory (${dir}, ${gib(room)} free)`
    : `on disk (${dir}: ${existsSync(TMPFS) ? `${TMPFS} has ${gib(room)} free, under ${gib(TMPFS_ROOM_NEEDED)}` : `no ${TMPFS}`})`;
  return { dir, where };
}
