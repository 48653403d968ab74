// The scam shield on its held-out set (content/shield/held-out-first-messages.csv: never trained
// on), decided as the server decides a first message from a sender it knows nothing against. The
// floor of issue 51: at least 90 % of scams refused or warned, no ordinary message refused, at most
// 3 % warned. Measured before any tuning: 116 of 120 caught, 4 ordinary refused, 42 warned; the
// shipped model: 115 caught, none refused, 3 warned (docs/benchmarks.md).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readScamSignals } from '../../../core/policy/term-files.ts';
import { UNREMARKABLE } from '../../../core/shield/decision.ts';
import { judgeFirstMessage } from '../../../core/shield/first-message.ts';
import { readMessageCorpus } from '../../../pipeline/shield/corpus.ts';
import { shieldModel } from '../../../server/messages/shield-model.ts';

const CONTENT = fileURLToPath(new URL('../../../content', import.meta.url));
const { signals } = readScamSignals(CONTENT);
const { rows, problems } = readMessageCorpus(CONTENT, 'heldOutMessages');
const decided = rows.map((row) => ({
  ...row,
  outcome: judgeFirstMessage(shieldModel('messages'), signals, row.text, {
    places: [],
    behaviour: UNREMARKABLE,
  }).outcome,
}));
const listed = (label: string, outcome: string) =>
  decided.filter((row) => row.label === label && row.outcome === outcome).map((row) => row.text);

describe('the held-out first messages', () => {
  it('are 120 scam and 120 ordinary, all readable', () => {
    expect(problems).toEqual([]);
    expect(decided.filter((row) => row.label === 'scam')).toHaveLength(120);
    expect(decided.filter((row) => row.label === 'ordinary')).toHaveLength(120);
  });

  it('at least 90 % of scams are refused or warned', () => {
    expect(
      listed('scam', 'delivered').length,
      listed('scam', 'delivered').join('\n'),
    ).toBeLessThanOrEqual(12);
  });

  it('no ordinary message is refused, and at most 3 % are warned', () => {
    expect(listed('ordinary', 'refused')).toEqual([]);
    expect(
      listed('ordinary', 'warned').length,
      listed('ordinary', 'warned').join('\n'),
    ).toBeLessThanOrEqual(3);
  });
});
