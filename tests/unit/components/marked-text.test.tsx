// The policy scanner's marks as the moderator sees them: each range in <mark>, the text whole
// whatever the marks say (stored JSON is parsed defensively: server/moderation/review.ts parseMarks).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { parseMarks } from '../../../server/moderation/review.ts';
import { MarkedText } from '../../../src/components/MarkedText.tsx';
import type { PolicyMark } from '../../../core/views/moderation.ts';

const mark = (start: number, end: number, term = 'x'): PolicyMark => ({
  field: 'description',
  term,
  start,
  end,
});
const render = (text: string, marks: PolicyMark[]) =>
  renderToStaticMarkup(<MarkedText text={text} marks={marks} />).replace(
    / class="policy-mark" title="Policy term: \w+"/g,
    '',
  );

describe('MarkedText', () => {
  test('marks each range, in text order whatever the order of the marks', () => {
    expect(render('roses for a generous man', [mark(12, 20), mark(0, 5)])).toBe(
      '<mark>roses</mark> for a <mark>generous</mark> man',
    );
  });

  test('leaves out a range past the end or overlapping an earlier one, and keeps the text whole', () => {
    expect(render('new in town', [mark(0, 3), mark(2, 6), mark(8, 40)])).toBe(
      '<mark>new</mark> in town',
    );
  });

  test('escapes the text as React does', () => {
    expect(render('<b>teen</b>', [mark(3, 7)])).toBe('&lt;b&gt;<mark>teen</mark>&lt;/b&gt;');
  });
});

describe('parseMarks', () => {
  test('keeps well-formed marks and drops anything else', () => {
    const good = { field: 'title', term: 'roses', start: 0, end: 5 };
    expect(
      parseMarks(
        JSON.stringify([
          good,
          { field: 'other', term: 'a', start: 0, end: 1 },
          { field: 'title', term: 'a', start: 3, end: 3 },
          { field: 'title', term: 'a', start: -1, end: 2 },
          { field: 'title', start: 0, end: 2 },
          null,
        ]),
      ),
    ).toEqual([good]);
    expect(parseMarks('not json')).toEqual([]);
    expect(parseMarks('{"field":"title"}')).toEqual([]);
    expect(parseMarks(null)).toEqual([]);
  });
});
