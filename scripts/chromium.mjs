// Finds the Chromium the end-to-end tests drive, and installs Debian's `chromium` when there is
// none and this machine can (root, apt-get present). The one place that knows about browsers:
// `npm test` calls it; CI only calls `npm test`.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** Where Chrome and Chromium usually live on Linux, most likely first. */
export const usualChromiumPaths = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/lib/chromium/chromium',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
];

export const installCommand = 'apt-get update && apt-get install -y chromium';

/** Whether `path` is a file this process may run (also scripts/postgres.mjs, scripts/exiftool.mjs). */
export function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `CHROMIUM_PATH` when set (and it must then exist), else the first usual path that exists. */
export function findChromium(env = process.env, candidates = usualChromiumPaths) {
  if (env.CHROMIUM_PATH) {
    return isExecutable(env.CHROMIUM_PATH)
      ? { path: env.CHROMIUM_PATH }
      : { problem: `CHROMIUM_PATH is set to ${env.CHROMIUM_PATH}, which is not an executable.` };
  }
  const path = candidates.find(isExecutable);
  return path ? { path } : { problem: 'No Chromium or Chrome was found.' };
}

function commandExists(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** Why this process cannot install a Debian package itself (Chromium, PostgreSQL, exiftool), or undefined when it can. */
export function whyNoInstall() {
  if (process.platform !== 'linux') return 'this is not Linux';
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return 'this is not root';
  if (!commandExists('apt-get')) return 'apt-get is not here';
  return undefined;
}

function run(command, args) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

/**
 * The path of a Chromium to use, installing Debian's package when needed and possible, or a
 * message saying what the user must do.
 */
export function ensureChromium(log = console.log) {
  const found = findChromium();
  if (found.path) return found;
  if (process.env.CHROMIUM_PATH) return found;
  const reason = whyNoInstall();
  if (reason) {
    return {
      problem: `${found.problem} The end-to-end tests need one, and ${reason}, so npm test can't install it. Run as root:\n  ${installCommand}\n(or point CHROMIUM_PATH at a Chromium binary).`,
    };
  }
  log("No Chromium found: installing Debian's chromium with apt-get (once; about a minute).");
  if (!run('apt-get', ['update', '-qq']) || !run('apt-get', ['install', '-y', '-qq', 'chromium'])) {
    return {
      problem: `Installing Chromium with apt-get failed (see above). Try it by hand:\n  ${installCommand}`,
    };
  }
  const installed = findChromium();
  return installed.path
    ? installed
    : {
        problem: `apt-get installed chromium, but no binary was found at ${usualChromiumPaths[0]}.`,
      };
}
