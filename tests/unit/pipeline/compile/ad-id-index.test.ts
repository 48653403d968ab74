// The id index's file (pipeline/compile/ad-id-index.ts writes it, core/content/ad-id-index-file.ts
// searches it): every id found with its state, offset and length, whichever state's records it
// came from; ids that are not there (below, between, above) found as missing; an empty index; a
// missing or foreign file says so, for the fallback; a state file read for its records.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  AdIdList,
  scanStateIds,
  writeAdIdIndex,
} from '../../../../pipeline/compile/ad-id-index.ts';
import { findAdPlace, RECORD_BYTES } from '../../../../core/content/ad-id-index-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'localboard-ad-ids-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes each state's records and the index from them; the index's path. */
function indexOf(states: Record<string, [id: number, offset: number, bytes: number][]>): string {
  const entries = Object.entries(states).map(([state, records]) => {
    const list = new AdIdList();
    for (const [id, offset, bytes] of records) list.add(id, offset, bytes);
    const idsFile = join(dir, `${state}.ids`);
    list.write(idsFile);
    return { state, idsFile };
  });
  const file = join(dir, `ids-${Math.random().toString(36).slice(2)}.idx`);
  writeAdIdIndex(file, entries);
  return file;
}

describe('the id index', () => {
  test('finds each id in its state, whatever order the lines were written in', () => {
    const file = indexOf({
      Alabama: [
        [1042, 0, 300],
        [7, 300, 250],
        [100_000_001, 550, 410],
      ],
      'New York': [
        [500, 0, 199],
        [3, 199, 600],
      ],
      Wyoming: [],
    });
    expect(findAdPlace(file, 3)).toEqual({ state: 'New York', offset: 199, bytes: 600 });
    expect(findAdPlace(file, 7)).toEqual({ state: 'Alabama', offset: 300, bytes: 250 });
    expect(findAdPlace(file, 500)).toEqual({ state: 'New York', offset: 0, bytes: 199 });
    expect(findAdPlace(file, 1042)).toEqual({ state: 'Alabama', offset: 0, bytes: 300 });
    expect(findAdPlace(file, 100_000_001)).toEqual({
      state: 'Alabama',
      offset: 550,
      bytes: 410,
    });
  });

  test('an id that is not there is not found: below the first, between two, above the last', () => {
    const file = indexOf({
      Ohio: [
        [10, 0, 5],
        [20, 5, 5],
        [30, 10, 5],
      ],
    });
    for (const id of [1, 9, 11, 25, 31, 2 ** 53 - 1]) expect(findAdPlace(file, id)).toBeUndefined();
  });

  test('many ids, past the block read at the end of the search: all found, none made up', () => {
    const states: Record<string, [number, number, number][]> = { Texas: [], Utah: [] };
    // 20,000 ids with gaps, spread over two states, out of order.
    for (let n = 20_000; n >= 1; n -= 1)
      states[n % 3 === 0 ? 'Utah' : 'Texas']!.push([n * 7 + (n % 5), n * 100, n % 900]);
    const file = indexOf(states);
    for (let n = 1; n <= 20_000; n += 1) {
      const place = findAdPlace(file, n * 7 + (n % 5));
      expect(place).toEqual({
        state: n % 3 === 0 ? 'Utah' : 'Texas',
        offset: n * 100,
        bytes: n % 900,
      });
    }
    for (const id of [0, 6, 13, 20_000 * 7 + 5, 10 ** 9])
      expect(findAdPlace(file, id)).toBeUndefined();
  });

  test('an index of no ads finds nothing', () => {
    expect(findAdPlace(indexOf({}), 1)).toBeUndefined();
    expect(findAdPlace(indexOf({ Iowa: [] }), 1)).toBeUndefined();
  });

  test('a missing file, or one in another layout, is no index (the caller falls back)', () => {
    expect(findAdPlace(join(dir, 'nothing-here.idx'), 1)).toBe('no-index');
    const foreign = join(dir, 'foreign.idx');
    writeFileSync(foreign, Buffer.alloc(64 + RECORD_BYTES));
    expect(findAdPlace(foreign, 1)).toBe('no-index');
  });

  test('the same id from two states is our bug, said as such', () => {
    expect(() => indexOf({ Maine: [[5, 0, 1]], Vermont: [[5, 0, 1]] })).toThrow(
      'ad id 5 is in the id index twice',
    );
  });

  test("a state file's lines read back as records: each line's id, offset and length", () => {
    const lines = [
      '{"id":12,"title":"a"}\n',
      '{"id":3,"title":"é, with a longer title"}\n',
      '{"title":"id not first","id":99}\n',
    ];
    const stateFile = join(dir, 'Kansas.ndjson');
    writeFileSync(stateFile, lines.join(''));
    const idsFile = join(dir, 'Kansas-scanned.ids');
    scanStateIds(stateFile).write(idsFile);
    const file = join(dir, 'kansas.idx');
    writeAdIdIndex(file, [{ state: 'Kansas', idsFile }]);
    const bytes = lines.map((line) => Buffer.byteLength(line));
    expect(findAdPlace(file, 12)).toEqual({ state: 'Kansas', offset: 0, bytes: bytes[0] });
    expect(findAdPlace(file, 3)).toEqual({ state: 'Kansas', offset: bytes[0], bytes: bytes[1] });
    expect(findAdPlace(file, 99)).toEqual({
      state: 'Kansas',
      offset: bytes[0]! + bytes[1]!,
      bytes: bytes[2],
    });
  });
});
