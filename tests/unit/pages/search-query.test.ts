// What typed text becomes in FTS5: words only, each quoted, so no input is FTS syntax.
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { ftsMatch, queryWords } from '../../../core/search-query.ts';

describe('queryWords and ftsMatch', () => {
  test('FTS syntax drops out and the words are quoted', () => {
    const words = queryWords('"unbalanced NEAR(hiking, coffee) hik* AND OR -jazz ^title:chess');
    expect(words).toEqual([
      'unbalanced',
      'NEAR',
      'hiking',
      'coffee',
      'hik',
      'AND',
      'OR',
      'jazz',
      'title',
      'chess',
    ]);
    expect(ftsMatch(['AND', 'café'])).toBe('"AND" "café"');
    expect(ftsMatch(['a"b'])).toBe('"a""b"');
  });

  test('SQLite accepts every such query and reads it as plain words', () => {
    const db = new Database(':memory:');
    db.exec(
      "CREATE VIRTUAL TABLE t USING fts5(title, description, tokenize = 'porter unicode61 remove_diacritics 2')",
    );
    db.prepare('INSERT INTO t VALUES (?, ?)').run('Near the lake', 'and or not, hiking at noon');
    const match = db.prepare('SELECT count(*) AS n FROM t WHERE t MATCH ?');
    for (const text of [
      '"unbalanced',
      'NEAR(',
      '*',
      'AND OR',
      'title:x',
      '(((',
      'a"b',
      'Ünïcödé 東京',
    ]) {
      const words = queryWords(text);
      if (words.length > 0) expect(() => match.get(ftsMatch(words)), text).not.toThrow();
    }
    expect((match.get(ftsMatch(queryWords('NEAR( AND OR'))) as { n: number }).n).toBe(1);
    expect((match.get(ftsMatch(queryWords('hikes'))) as { n: number }).n).toBe(1);
    db.close();
  });
});
