// Pins the page-hash file beside the build manifest: sections written, read back, and joined.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  joinPageHashes,
  PageHashWriter,
  pageHashes,
  readPageHashFile,
} from '../../../../pipeline/prerender/page-hashes.ts';
import type { PageHashFile } from '../../../../pipeline/prerender/page-hashes.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'localboard-page-hashes-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const BURLINGTON = '/city/Vermont/Burlington\thashB\n/city/Vermont/Burlington/ad/1001\thash1001\n';
const NYC = '/city/New York/New York City\thashN\n/city/New York/New York City/page/2\thashN2\n';

/** Writes sections with PageHashWriter, as a render thread does. */
function writeSections(
  file: string,
  sections: ReadonlyArray<[taskId: string, lines: string]>,
): void {
  const writer = new PageHashWriter(file);
  for (const [taskId, lines] of sections) writer.add(taskId, lines);
  writer.close();
}

function read(file: string): PageHashFile {
  const read = readPageHashFile(file);
  if (!read) throw new Error(`${file} did not read as a page-hash file`);
  return read;
}

describe('PageHashWriter and readPageHashFile', () => {
  test("read back each task's lines exactly as written, and list every task", () => {
    const file = join(dir, 'pages.txt');
    writeSections(file, [
      ['site', '/\thashHome\n/about\thashAbout\n'],
      ['state:Vermont', '/state/Vermont\thashV\n'],
      ['city:Vermont|Burlington', BURLINGTON],
      ['city:New York|New York City', NYC],
    ]);
    const hashes = read(file);
    expect([...hashes.taskIds()]).toEqual([
      'site',
      'state:Vermont',
      'city:Vermont|Burlington',
      'city:New York|New York City',
    ]);
    expect(hashes.lines('site')).toBe('/\thashHome\n/about\thashAbout\n');
    expect(hashes.lines('state:Vermont')).toBe('/state/Vermont\thashV\n');
    expect(hashes.lines('city:Vermont|Burlington')).toBe(BURLINGTON);
    expect(hashes.lines('city:New York|New York City')).toBe(NYC);
  });

  test('give undefined for a task the file has no section for', () => {
    const file = join(dir, 'pages.txt');
    writeSections(file, [['city:Vermont|Burlington', BURLINGTON]]);
    expect(read(file).lines('city:Vermont|Montpelier')).toBeUndefined();
  });

  test('read a task with no pages back as empty lines, wherever its section is', () => {
    const file = join(dir, 'pages.txt');
    writeSections(file, [
      ['city:Vermont|Empty', ''],
      ['city:Vermont|Burlington', BURLINGTON],
      ['city:Vermont|Also Empty', ''],
    ]);
    const hashes = read(file);
    expect(hashes.lines('city:Vermont|Empty')).toBe('');
    expect(hashes.lines('city:Vermont|Burlington')).toBe(BURLINGTON);
    expect(hashes.lines('city:Vermont|Also Empty')).toBe('');
    expect([...hashes.taskIds()]).toEqual([
      'city:Vermont|Empty',
      'city:Vermont|Burlington',
      'city:Vermont|Also Empty',
    ]);
  });

  test('copy a whole part file with addFile', () => {
    const part = join(dir, 'part-1.txt');
    writeSections(part, [['city:Vermont|Burlington', BURLINGTON]]);
    const file = join(dir, 'pages.txt');
    const writer = new PageHashWriter(file);
    writer.add('state:Vermont', '/state/Vermont\thashV\n');
    writer.addFile(part);
    writer.close();
    const hashes = read(file);
    expect([...hashes.taskIds()]).toEqual(['state:Vermont', 'city:Vermont|Burlington']);
    expect(hashes.lines('city:Vermont|Burlington')).toBe(BURLINGTON);
  });
});

describe('a page-hash file larger than the chunks it is read in', () => {
  // Sections of every size, so that headers fall across the 1 MB chunks in every way.
  const sections = Array.from({ length: 6000 }, (_, task): [string, string] => [
    `city:State ${task % 50}|Town ${task} ${'é'.repeat(task % 7)}`,
    Array.from(
      { length: task % 17 },
      (_, page) => `/city/Town ${task}/ad/${page}\t${'h'.repeat(27)}\n`,
    ).join(''),
  ]);

  test('reads back every section exactly', () => {
    const file = join(dir, 'pages.txt');
    writeSections(file, sections);
    const hashes = read(file);
    expect([...hashes.taskIds()]).toEqual(sections.map(([taskId]) => taskId));
    for (const [taskId, lines] of sections) expect(hashes.lines(taskId)).toBe(lines);
  });

  test('joins the skipped sections, copied as bytes, with the parts', () => {
    const file = join(dir, 'build-manifest.pages.txt');
    writeSections(file, sections);
    const part = join(dir, 'part-1.txt');
    const [first] = sections;
    writeSections(part, [[first![0], '/changed\thash\n']]);
    const skipped = sections.slice(1).filter((_, index) => index % 3 !== 0);
    joinPageHashes(
      file,
      read(file),
      skipped.map(([taskId]) => taskId),
      [part],
    );
    const joined = read(file);
    expect([...joined.taskIds()]).toEqual([...skipped.map(([taskId]) => taskId), first![0]]);
    for (const [taskId, lines] of skipped) expect(joined.lines(taskId)).toBe(lines);
    expect(joined.lines(first![0])).toBe('/changed\thash\n');
  });
});

describe('readPageHashFile', () => {
  test('gives undefined for a missing file', () => {
    expect(readPageHashFile(join(dir, 'missing.txt'))).toBeUndefined();
  });

  test('reads an empty file as one without sections', () => {
    const file = join(dir, 'pages.txt');
    writeFileSync(file, '');
    expect([...read(file).taskIds()]).toEqual([]);
  });

  test('gives undefined for a file that does not start with a section header', () => {
    const file = join(dir, 'pages.txt');
    writeFileSync(file, `/city/Vermont/Burlington\thashB\n#city:Vermont|Burlington\n${BURLINGTON}`);
    expect(readPageHashFile(file)).toBeUndefined();
  });
});

describe('pageHashes', () => {
  test('maps each page path to its hash, spaces in paths kept', () => {
    expect(pageHashes(NYC)).toEqual(
      new Map([
        ['/city/New York/New York City', 'hashN'],
        ['/city/New York/New York City/page/2', 'hashN2'],
      ]),
    );
  });

  test('gives an empty map for a task with no pages', () => {
    expect(pageHashes('').size).toBe(0);
  });
});

describe('joinPageHashes', () => {
  test('keeps the skipped tasks from the last file, adds every part, and removes the parts', () => {
    const file = join(dir, 'build-manifest.pages.txt');
    writeSections(file, [
      ['site', '/\thashOld\n'],
      ['state:Vermont', '/state/Vermont\thashV\n'],
      ['city:Vermont|Burlington', BURLINGTON],
      ['city:Vermont|Gone', '/city/Vermont/Gone\thashGone\n'],
    ]);
    const last = read(file);
    const part1 = join(dir, 'part-1.txt');
    const part2 = join(dir, 'part-2.txt');
    writeSections(part1, [['site', '/\thashNew\n']]);
    writeSections(part2, [
      ['city:New York|New York City', NYC],
      ['city:Vermont|No Ads', ''],
    ]);

    const skipped = ['state:Vermont', 'city:Vermont|Burlington'];
    joinPageHashes(file, last, skipped, [part1, join(dir, 'part-missing.txt'), part2]);

    const joined = read(file);
    expect(new Set(joined.taskIds())).toEqual(
      new Set([
        'state:Vermont',
        'city:Vermont|Burlington',
        'site',
        'city:New York|New York City',
        'city:Vermont|No Ads',
      ]),
    );
    expect(joined.lines('state:Vermont')).toBe('/state/Vermont\thashV\n');
    expect(joined.lines('city:Vermont|Burlington')).toBe(BURLINGTON);
    expect(joined.lines('site')).toBe('/\thashNew\n');
    expect(joined.lines('city:New York|New York City')).toBe(NYC);
    expect(joined.lines('city:Vermont|No Ads')).toBe('');
    // Neither skipped nor rendered again: the task is no longer part of the site.
    expect(joined.lines('city:Vermont|Gone')).toBeUndefined();
    expect(existsSync(part1)).toBe(false);
    expect(existsSync(part2)).toBe(false);
    expect(existsSync(`${file}.next`)).toBe(false);
  });

  test('writes the parts alone when there is no last file, skipping tasks it cannot find', () => {
    const file = join(dir, 'build-manifest.pages.txt');
    const part = join(dir, 'part-1.txt');
    writeSections(part, [['city:Vermont|Burlington', BURLINGTON]]);

    joinPageHashes(file, undefined, ['state:Vermont'], [part]);

    const joined = read(file);
    expect([...joined.taskIds()]).toEqual(['city:Vermont|Burlington']);
    expect(joined.lines('city:Vermont|Burlington')).toBe(BURLINGTON);
    expect(existsSync(part)).toBe(false);
  });
});
