// Finds exiftool, and installs Debian's `libimage-exiftool-perl` when there is none and this
// machine can (root, apt-get), as scripts/chromium.mjs does for Chromium: the photo tests read
// every tag of an uploaded and a published photo with it (GPS, serial number, XMP, IPTC, …), an
// independent reader rather than the library that wrote the files.
import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { isExecutable, whyNoInstall } from './chromium.mjs';

export const installCommand = 'apt-get update && apt-get install -y libimage-exiftool-perl';

/** `EXIFTOOL_PATH` when set (and it must then exist), else the first `exiftool` on PATH. */
export function findExiftool(env = process.env) {
  if (env.EXIFTOOL_PATH) {
    return isExecutable(env.EXIFTOOL_PATH)
      ? { path: env.EXIFTOOL_PATH }
      : { problem: `EXIFTOOL_PATH is set to ${env.EXIFTOOL_PATH}, which is not an executable.` };
  }
  const path = (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, 'exiftool'))
    .find(isExecutable);
  return path ? { path } : { problem: 'No exiftool was found.' };
}

/** exiftool's path, installing Debian's package when needed and possible; or why not. */
export function ensureExiftool(log = console.log) {
  const found = findExiftool();
  if (found.path || process.env.EXIFTOOL_PATH) return found;
  const reason = whyNoInstall();
  if (reason)
    return {
      problem: `${found.problem} The photo tests need it, and ${reason}, so npm test can't install it. Run as root:\n  ${installCommand}`,
    };
  log("No exiftool found: installing Debian's libimage-exiftool-perl with apt-get (once).");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) =>
    spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
  const install = () => run(['install', '-y', '-qq', 'libimage-exiftool-perl']);
  // The package lists are often fresh enough (Chromium's or PostgreSQL's install just read
  // them); refresh them only when the install fails without.
  if (!install() && !(run(['update', '-qq']) && install()))
    return {
      problem: `Installing exiftool with apt-get failed (see above). Try it by hand:\n  ${installCommand}`,
    };
  const installed = findExiftool();
  return installed.path
    ? installed
    : { problem: 'apt-get installed libimage-exiftool-perl, but no exiftool is on PATH.' };
}
