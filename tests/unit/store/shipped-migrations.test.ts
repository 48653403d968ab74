// The migrations that have shipped are never edited (store/migrations/migrations.ts): a database
// that ran one is never given its new text. Part of their text is written by shared
// functions (store/schema-sql.ts, the SQLite statements' table): this pins each shipped
// migration's exact text by its SHA-256, so that a change to one of those functions (or to a
// migration) fails here. A migration appended later is not pinned until listed.
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { migrationsOn } from '../../../store/migrations/migrations.ts';

/**
 * The first 16 hex digits of each shipped migration's SHA-256, in order, each engine's apart (those
 * with SQL there): the numbering both now share came after them (store/migrations/ledger.ts).
 */
const SHIPPED = {
  sqlite: [
    'acae4fb5e1c7f1f1',
    '166b0f6a957ed56e',
    'f01daf9bcbc43906',
    'de8f644da5a7de27',
    '1c7dea27be101234',
    '0ad09951885d4a45',
    '2ba21b425e28b03e',
    '4e224d76652a9a0e',
    '32f514305bb65767',
    '1abfae032b35e0a5',
    'f36d88a01e0e4343',
    '4b731be39d4ec8b7',
    '8514092ebcc7b7bc',
    '851fa617c04492c7',
    '35ff259bfa1c3253',
    'a8adda4da8c93470',
    '1e6df3b68f0ffd00',
    'a4c862881ab33d3d',
    '8b72d1a1fa56f436',
    '1b5f0c984a13d5a4',
    '08f589a16fd6c540',
    '8bf91110155b3a36',
    'e0b75fcc423d6f8a',
    '5b7d43e1d1d27dc3',
    '66a9ba506acce5e6',
  ],
  postgres: [
    '0eb21bdff777ae0d',
    '79cb0d9c5fb622a8',
    'b830a3ca161e639c',
    'd40a55feb0678c17',
    '9e0b44f68bc58f58',
    '7c9f77f2bafe58e3',
    'f193347d0e2de440',
    'ef0ab38c300ba625',
    'a3464ffbb005f345',
    'f450186ee9344597',
    '1c7d671fbc813635',
    'ee42a0dc3c2574e2',
    'e427ca9899de8d34',
    'a7e05d6e5272ab88',
    'a3848c480b930dbb',
    '46c395d32901e50d',
    '4619f2b9688e6a7e',
    'd13f06777540ec14',
    '032b3f046ea36298',
    '5fd6bf3294bcef5d',
  ],
};

const fingerprint = (sql: string) => createHash('sha256').update(sql).digest('hex').slice(0, 16);

test.each([
  ['sqlite', migrationsOn('sqlite')],
  ['postgres', migrationsOn('postgres')],
] as const)('every shipped %s migration has the text it shipped with', (engine, migrations) => {
  const shipped = SHIPPED[engine];
  expect(migrations.length).toBeGreaterThanOrEqual(shipped.length);
  expect(migrations.slice(0, shipped.length).map(fingerprint)).toEqual(shipped);
});
