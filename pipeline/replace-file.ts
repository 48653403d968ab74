// Files of the site are replaced whole: written to a temporary file in the same folder, then
// renamed over the old one (a rename within a file system is atomic), so that the server, which
// keeps serving while the server publishes, never reads a page half-written. A reader that opened
// the old file goes on reading the old file.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { threadId } from 'node:worker_threads';

/** A temporary name beside `path`, unique to this process and thread. */
const temporaryFor = (path: string) =>
  join(dirname(path), `.${basename(path)}.${process.pid}-${threadId}.tmp`);

/** Writes `data` to `path` through a temporary file and a rename. */
export function replaceFile(path: string, data: string | Uint8Array): void {
  const temporary = temporaryFor(path);
  try {
    writeFileSync(temporary, data);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Makes the files of `to` that `from` has the same as in `from`, each replaced whole and only when
 * it differs (the client assets, copied into the site by every build): a page never links to a
 * stylesheet that is half there. removeFilesNotIn takes away the old ones afterwards.
 */
export function copyFilesInto(from: string, to: string, skip: (path: string) => boolean): void {
  for (const [source, target] of filesOf(from, to, skip)) {
    if (sameBytes(source, target)) continue;
    mkdirSync(dirname(target), { recursive: true });
    const temporary = temporaryFor(target);
    copyFileSync(source, temporary);
    renameSync(temporary, target);
  }
}

/**
 * Removes the files under `to/{folder}` that `from` does not have (what copyFilesInto copied from
 * it): called once the pages that linked to them are rewritten, in whichever process finishes the
 * build.
 */
export function removeFilesNotIn(
  from: string,
  to: string,
  folder: string,
  skip: (path: string) => boolean,
): void {
  const kept = new Set(filesOf(from, to, skip).map(([, target]) => target));
  const removeGone = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) removeGone(path);
      else if (!kept.has(path)) rmSync(path, { force: true });
    }
  };
  removeGone(join(to, folder));
}

/** Each file under `from` (but `skip`'s) and where it goes under `to`. */
function filesOf(from: string, to: string, skip: (path: string) => boolean): [string, string][] {
  const files: [string, string][] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const source = join(dir, entry.name);
      if (skip(source)) continue;
      if (entry.isDirectory()) walk(source);
      else files.push([source, join(to, relative(from, source))]);
    }
  };
  walk(from);
  return files;
}

function sameBytes(a: string, b: string): boolean {
  if (!existsSync(b) || statSync(a).size !== statSync(b).size) return false;
  return readFileSync(a).equals(readFileSync(b));
}
