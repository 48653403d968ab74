// What the scam-signal scan adds to a message post (issue 29): judgeMessage's time per message, p50,
// p99 and max, over first messages of every length a member may send (the corpus of
// tests/fixtures/scam-corpus, and ordinary texts up to the 2,000-character limit), with the shipped
// list and with a list ten times as long (each list ten times its entries, each signal ten times,
// the copies made of other words so that they cost what real ones would). `npm run bench:scam`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { judgeMessage } from '../core/policy/scam-message.ts';
import type { ScamSignals } from '../core/policy/scam-signals.ts';
import { readScamSignals } from '../core/policy/term-files.ts';
import { mulberry32 } from './seeded-random.ts';

const root = process.cwd();
const { signals: shipped } = readScamSignals(join(root, 'content'));
const random = mulberry32(29);
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const madeUpWord = () =>
  Array.from(
    { length: 4 + Math.floor(random() * 6) },
    () => LETTERS[Math.floor(random() * 26)],
  ).join('');

/** The list ten times as long: every list and every signal ten times, the copies of made-up words. */
function tenTimes(signals: ScamSignals): ScamSignals {
  const lists = Object.fromEntries(
    Object.entries(signals.lists).map(([name, entries]) => [
      name,
      [...entries, ...Array.from({ length: entries.length * 9 }, madeUpWord)],
    ]),
  );
  const copies = signals.signals.flatMap((signal) => [
    signal,
    ...Array.from({ length: 9 }, () => ({
      ...signal,
      pattern: signal.pattern
        .split(' ')
        .map((word) => (/^[a-z']+$/.test(word) ? madeUpWord() : word))
        .join(' '),
    })),
  ]);
  return { lists, signals: copies };
}

const corpus = ['scam', 'ordinary'].flatMap((kind) =>
  readFileSync(join(root, `tests/fixtures/scam-corpus/${kind}-first-messages.txt`), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#')),
);
const ordinary = corpus.slice(corpus.length / 2);
// Long messages: ordinary sentences joined up to 500, 1,000 and 2,000 characters.
const long = [500, 1000, 2000].map((length) => {
  let text = '';
  while (text.length < length) text += `${ordinary[Math.floor(random() * ordinary.length)]} `;
  return text.slice(0, length);
});
const messages = [...corpus, ...long, ...long.map((text) => `${text.slice(0, -20)} It’s me ☺`)];
const places = ['Los Angeles', 'California'];

function measure(signals: ScamSignals) {
  const compiledAt = performance.now();
  judgeMessage('warm up', signals, { places, answered: false });
  const compileMs = performance.now() - compiledAt;
  for (let round = 0; round < 20; round += 1)
    for (const text of messages) judgeMessage(text, signals, { places, answered: false });
  const times: number[] = [];
  for (let round = 0; round < 200; round += 1)
    for (const text of messages) {
      const started = performance.now();
      judgeMessage(text, signals, { places, answered: round % 2 === 0 });
      times.push(performance.now() - started);
    }
  times.sort((a, b) => a - b);
  const at = (share: number) =>
    times[Math.min(times.length - 1, Math.floor(times.length * share))]!;
  return { compileMs, p50: at(0.5), p99: at(0.99), max: times.at(-1)!, scans: times.length };
}

const longer = tenTimes(shipped);
const rows = [
  ['shipped list', shipped, measure(shipped)],
  ['ten times as long', longer, measure(longer)],
] as const;
console.log(
  `${messages.length} messages (${corpus.length} of the corpus, 6 of 500–2,000 characters):`,
);
for (const [name, signals, result] of rows)
  console.log(
    `  ${name.padEnd(18)} ${String(signals.signals.length).padStart(5)} signals: ` +
      `p50 ${result.p50.toFixed(3)} ms, p99 ${result.p99.toFixed(3)} ms, max ${result.max.toFixed(3)} ms ` +
      `(${result.scans} scans; compiled once in ${result.compileMs.toFixed(0)} ms)`,
  );
