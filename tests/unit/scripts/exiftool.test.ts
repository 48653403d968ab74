import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findExiftool } from '../../../scripts/exiftool.mjs';

const dir = mkdtempSync(join(tmpdir(), 'localboard-exiftool-'));
const bin = join(dir, 'bin');
const textOnly = join(dir, 'text-only');
mkdirSync(bin);
mkdirSync(textOnly);
const exiftool = join(bin, 'exiftool');
writeFileSync(exiftool, '#!/bin/sh\n');
chmodSync(exiftool, 0o755);
writeFileSync(join(textOnly, 'exiftool'), 'not a program');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('finding exiftool for the photo tests', () => {
  it('takes the first executable exiftool on PATH, skipping one that is not executable', () => {
    expect(findExiftool({ PATH: [join(dir, 'missing'), textOnly, bin].join(':') })).toEqual({
      path: exiftool,
    });
  });

  it('says so when PATH has none', () => {
    expect(findExiftool({ PATH: textOnly }).problem).toBe('No exiftool was found.');
  });

  it('uses EXIFTOOL_PATH before PATH, and names it when it is wrong', () => {
    expect(findExiftool({ EXIFTOOL_PATH: exiftool, PATH: '' })).toEqual({ path: exiftool });
    const wrong = join(textOnly, 'exiftool');
    expect(findExiftool({ EXIFTOOL_PATH: wrong, PATH: bin }).problem).toBe(
      `EXIFTOOL_PATH is set to ${wrong}, which is not an executable.`,
    );
  });
});
