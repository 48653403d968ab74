import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  findChromium,
  findWholeChromium,
  headlessShellPaths,
  usualChromiumPaths,
  wholeChromiumPaths,
} from '../../../scripts/chromium.mjs';

const dir = mkdtempSync(join(tmpdir(), 'localboard-chromium-'));
const browser = join(dir, 'chrome');
writeFileSync(browser, '#!/bin/sh\n');
chmodSync(browser, 0o755);
const notExecutable = join(dir, 'chromium-text');
writeFileSync(notExecutable, 'not a program');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('finding Chromium for the end-to-end tests', () => {
  it('takes the first usual location that holds an executable', () => {
    const found = findChromium({}, [join(dir, 'missing'), notExecutable, browser]);
    expect(found).toEqual({ path: browser });
  });

  it('says so when no location has one', () => {
    expect(findChromium({}, [join(dir, 'missing')]).problem).toBe(
      'No Chromium or Chrome was found.',
    );
  });

  it('uses CHROMIUM_PATH before any usual location, and names it when it is wrong', () => {
    expect(findChromium({ CHROMIUM_PATH: browser }, [])).toEqual({ path: browser });
    expect(findChromium({ CHROMIUM_PATH: notExecutable }, [browser]).problem).toBe(
      `CHROMIUM_PATH is set to ${notExecutable}, which is not an executable.`,
    );
  });

  it('looks for the headless shell before any whole browser', () => {
    expect(usualChromiumPaths.slice(0, headlessShellPaths.length)).toEqual(headlessShellPaths);
    expect(usualChromiumPaths.indexOf('/usr/bin/chromium')).toBeGreaterThan(
      headlessShellPaths.length - 1,
    );
  });
});

describe('finding a whole Chromium for the web app’s installability test', () => {
  it('never takes the headless shell, which has no installability check', () => {
    expect(wholeChromiumPaths.filter((path) => headlessShellPaths.includes(path))).toEqual([]);
    expect(wholeChromiumPaths).toContain('/usr/bin/chromium');
  });

  it('uses WHOLE_CHROMIUM_PATH before any usual location, and names it when it is wrong', () => {
    expect(findWholeChromium({ WHOLE_CHROMIUM_PATH: browser }, [])).toEqual({ path: browser });
    expect(findWholeChromium({ WHOLE_CHROMIUM_PATH: notExecutable }, [browser]).problem).toBe(
      `WHOLE_CHROMIUM_PATH is set to ${notExecutable}, which is not an executable.`,
    );
    expect(findWholeChromium({}, [join(dir, 'missing'), browser])).toEqual({ path: browser });
    expect(findWholeChromium({}, []).problem).toBe('No whole Chromium or Chrome was found.');
  });
});
