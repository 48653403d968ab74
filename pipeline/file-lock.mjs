// The one lock the build keeps, around Vite only: builds of one project into different output
// folders share nothing else, but while Vite starts, Vike executes page files (+route.ts,
// +config.ts) through temporary files beside them, named by their content
// (+route.ts.build-<hash>.mjs), so two Vite builds of the same project at once can delete each
// other's file mid-import (ENOENT). A folder made with mkdir, which only one process can create;
// one older than STALE_MS was left by a build that died, and is taken over. Plain JavaScript:
// scripts/build.mjs uses it before anything is built.
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const STALE_MS = 10 * 60_000;
const POLL_MS = 50;

/**
 * Runs `task` while holding the lock `dir`, waiting for it as long as another build holds it.
 * @template T
 * @param {string} dir
 * @param {() => Promise<T> | T} task
 * @returns {Promise<T>}
 */
export async function withLock(dir, task) {
  for (;;) {
    try {
      mkdirSync(dir, { recursive: false });
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      if (lockAge(dir) > STALE_MS) rmSync(dir, { recursive: true, force: true });
      else await sleep(POLL_MS);
    }
  }
  try {
    return await task();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** @param {string} dir */
function lockAge(dir) {
  try {
    return Date.now() - statSync(dir).mtimeMs;
  } catch {
    return 0; // released meanwhile
  }
}
