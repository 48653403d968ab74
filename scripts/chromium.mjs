// Finds the Chromium the end-to-end tests drive, and installs Debian's headless shell of it when
// there is none and this machine can (root, apt-get present). The one place that knows about
// browsers: `npm test` calls it; CI only calls `npm test`; tests/e2e/support.ts asks it too.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/**
 * Debian's `chromium-headless-shell`: the same Chromium (its Blink and V8, its version) built
 * without the browser's own windows, tabs and services, the build Playwright's headless mode runs
 * too. The e2e files take 0.65 of the time on it that they take on the whole browser, with the
 * same screenshots to the byte (docs/benchmarks.md). Taken first.
 */
export const headlessShellPaths = [
  '/usr/bin/chromium-headless-shell',
  '/usr/lib/chromium/chromium-headless-shell',
];

/** Where Chrome and Chromium usually live on Linux, most likely first (the headless shell first). */
export const usualChromiumPaths = [
  ...headlessShellPaths,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/lib/chromium/chromium',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
];

export const installCommand = 'apt-get update && apt-get install -y chromium-headless-shell';

/**
 * A whole Chromium or Chrome, not the headless shell: the shell has neither the browser's web app
 * installability check (`Page.getInstallabilityErrors` answers no errors for any page, one without
 * a manifest too) nor notifications (`Notification.permission` stays "denied"), which the web app's
 * test needs (tests/e2e/web-app.test.ts). Its other tests keep the faster shell.
 */
export const wholeChromiumPaths = usualChromiumPaths.filter(
  (path) => !headlessShellPaths.includes(path),
);

export const wholeInstallCommand = 'apt-get update && apt-get install -y chromium';

/** `WHOLE_CHROMIUM_PATH` when set, else the first whole Chromium or Chrome found. */
export function findWholeChromium(env = process.env, candidates = wholeChromiumPaths) {
  if (env.WHOLE_CHROMIUM_PATH)
    return isExecutable(env.WHOLE_CHROMIUM_PATH)
      ? { path: env.WHOLE_CHROMIUM_PATH }
      : {
          problem: `WHOLE_CHROMIUM_PATH is set to ${env.WHOLE_CHROMIUM_PATH}, which is not an executable.`,
        };
  const path = candidates.find(isExecutable);
  return path ? { path } : { problem: 'No whole Chromium or Chrome was found.' };
}

/**
 * A whole Chromium, installed with apt-get (Debian's `chromium`, the headless shell's browser)
 * when it is missing and this machine can; or why there is none.
 */
export function ensureWholeChromium(log = console.log) {
  const found = findWholeChromium();
  if (found.path) return found;
  const reason = whyNoInstall();
  if (reason)
    return {
      problem: `${found.problem} The web app's installability test needs one, and ${reason}, so npm test can't install it. Run as root: ${wholeInstallCommand}`,
    };
  log("No whole Chromium found: installing Debian's chromium with apt-get (once; about a minute).");
  if (
    !run('apt-get', ['install', '-y', '-qq', 'chromium']) &&
    !(run('apt-get', ['update', '-qq']) && run('apt-get', ['install', '-y', '-qq', 'chromium']))
  )
    return {
      problem: `Installing Chromium with apt-get failed (see above). Try: ${wholeInstallCommand}`,
    };
  return findWholeChromium();
}

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
 * The path of a Chromium to use, or a message saying what the user must do: `CHROMIUM_PATH` when
 * set; else the headless shell, installed with apt-get when it is missing and this machine can;
 * else (it could not be installed) any whole Chromium or Chrome found.
 */
export function ensureChromium(log = console.log) {
  if (process.env.CHROMIUM_PATH) return findChromium();
  const shell = findChromium({}, headlessShellPaths);
  if (shell.path) return shell;
  const reason = whyNoInstall();
  if (!reason) {
    log(
      "No Chromium headless shell found: installing Debian's chromium-headless-shell with apt-get (once; about a minute).",
    );
    if (
      run('apt-get', ['update', '-qq']) &&
      run('apt-get', ['install', '-y', '-qq', 'chromium-headless-shell'])
    ) {
      const installed = findChromium({}, headlessShellPaths);
      if (installed.path) return installed;
    }
    log('Installing it failed (see above): looking for a whole Chromium or Chrome instead.');
  }
  const whole = findChromium();
  if (whole.path) return whole;
  return {
    problem: reason
      ? `${whole.problem} The end-to-end tests need one, and ${reason}, so npm test can't install it. Run as root:\n  ${installCommand}\n(or point CHROMIUM_PATH at a Chromium binary).`
      : `${whole.problem} Installing Chromium's headless shell with apt-get failed (see above). Try it by hand:\n  ${installCommand}`,
  };
}
