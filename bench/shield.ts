// `npm run bench:shield` (issue 51): the scam shield measured on messages it never saw.
// 1. k-fold on the training corpus (content/shield/first-messages.csv): each text decided with the
//    score of a model trained without its fold (calibrated as the shipped model is), the signals
//    and a sender the shield knows nothing against.
// 2. The held-out set (content/shield/held-out-first-messages.csv, never trained on), decided by
//    the shipped model, the same way.
// For each: scams refused, warned and delivered, ordinary messages refused and warned, and a table
// by family; the held-out mistakes are listed. 3. The held-out ads: how many scam and ordinary
// ads the ad model marks. 4. The time to decide a first message, p50 and p99, on this one thread.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readScamSignals } from '../core/policy/term-files.ts';
import { decideFirstMessage, UNREMARKABLE, type ShieldOutcome } from '../core/shield/decision.ts';
import { judgeFirstMessage, weightiestSentence } from '../core/shield/first-message.ts';
import { adShieldText, judgeText } from '../core/shield/model.ts';
import { findScamSignals } from '../core/policy/scam-signals.ts';
import { AD_MARK_PROBABILITY } from '../core/shield/ad-mark.ts';
import { readAdCorpus, readMessageCorpus } from '../pipeline/shield/corpus.ts';
import { outOfFoldScores } from '../pipeline/shield/train.ts';
import { fitPlatt } from '../pipeline/shield/learn.ts';
import { shieldModel } from '../server/messages/shield-model.ts';

const contentDir = join(process.cwd(), 'content');
const { signals } = readScamSignals(contentDir);
const model = shieldModel('messages');
const context = { places: [], behaviour: UNREMARKABLE };

interface Decided {
  label: 'scam' | 'ordinary';
  family: string;
  text: string;
  outcome: ShieldOutcome;
}

const percent = (part: number, whole: number) =>
  whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)} %`;

function report(title: string, decided: readonly Decided[], listMistakes: boolean) {
  const count = (label: string, outcome: ShieldOutcome, family?: string) =>
    decided.filter(
      (row) =>
        row.label === label &&
        row.outcome === outcome &&
        (family === undefined || row.family === family),
    ).length;
  const total = (label: string, family?: string) =>
    decided.filter((row) => row.label === label && (family === undefined || row.family === family))
      .length;
  const scams = total('scam');
  const ordinary = total('ordinary');
  const caught = count('scam', 'refused') + count('scam', 'warned');
  console.log(`\n## ${title}`);
  console.log(
    `scams stopped or warned: ${caught} of ${scams} (${percent(caught, scams)}): ` +
      `${count('scam', 'refused')} refused, ${count('scam', 'warned')} warned, ` +
      `${count('scam', 'delivered')} delivered`,
  );
  console.log(
    `ordinary refused: ${count('ordinary', 'refused')} of ${ordinary} ` +
      `(${percent(count('ordinary', 'refused'), ordinary)}); warned: ${count('ordinary', 'warned')} ` +
      `(${percent(count('ordinary', 'warned'), ordinary)})`,
  );
  console.log('\n| family | messages | refused | warned | delivered |\n|---|---|---|---|---|');
  for (const label of ['scam', 'ordinary'] as const)
    for (const family of [
      ...new Set(decided.filter((row) => row.label === label).map((row) => row.family)),
    ].sort())
      console.log(
        `| ${label}: ${family} | ${total(label, family)} | ${count(label, 'refused', family)} | ` +
          `${count(label, 'warned', family)} | ${count(label, 'delivered', family)} |`,
      );
  if (!listMistakes) return;
  const mistakes = decided.filter(
    (row) => (row.label === 'scam') === (row.outcome === 'delivered'),
  );
  for (const row of mistakes)
    console.log(`- ${row.label} ${row.outcome} (${row.family}): ${row.text}`);
}

// 1. k-fold.
const training = readMessageCorpus(contentDir, 'messages').rows;
const scores = outOfFoldScores(training);
const labels = training.map(({ label }) => (label === 'scam' ? 1 : 0));
const platt = fitPlatt(scores, labels);
const kFold = training.map((row, at) => {
  const probability = 1 / (1 + Math.exp(-(platt.scale * scores[at]! + platt.shift)));
  const judgement = { ...judgeText(model, row.text), probability };
  const decision = decideFirstMessage(
    judgement,
    findScamSignals(row.text, signals),
    UNREMARKABLE,
    () => weightiestSentence(model, row.text),
  );
  return { ...row, outcome: decision.outcome };
});
report(`k-fold (5 folds) on the training corpus: ${training.length} messages`, kFold, false);

// 2. The held-out set.
const heldOut = readMessageCorpus(contentDir, 'heldOutMessages').rows;
const decidedHeldOut = heldOut.map((row) => ({
  ...row,
  outcome: judgeFirstMessage(model, signals, row.text, context).outcome,
}));
report(`held-out set: ${heldOut.length} messages, never trained on`, decidedHeldOut, true);

// 3. Ads.
const adModel = shieldModel('ads');
const heldOutAds = readAdCorpus(contentDir, 'heldOutAds').rows;
const byModel = (ad: (typeof heldOutAds)[number]) =>
  judgeText(adModel, adShieldText(ad)).probability >= AD_MARK_PROBABILITY;
const bySignals = (ad: (typeof heldOutAds)[number]) =>
  findScamSignals(`${ad.title}\n${ad.description}`, signals).length > 0;
const adsOf = (label: string) => heldOutAds.filter((ad) => ad.label === label);
const count = (label: string, marks: (ad: (typeof heldOutAds)[number]) => boolean) =>
  adsOf(label).filter(marks).length;
console.log(
  `\n## held-out ads (${adsOf('scam').length} scam, ${adsOf('ordinary').length} ordinary): marked ` +
    `by the ad model ${count('scam', byModel)} scam and ${count('ordinary', byModel)} ordinary; ` +
    `by the signals ${count('scam', bySignals)} and ${count('ordinary', bySignals)}; by either ` +
    `${count('scam', (ad) => byModel(ad) || bySignals(ad))} and ` +
    `${count('ordinary', (ad) => byModel(ad) || bySignals(ad))}`,
);

// 4. Time per message, on this thread: every message of both sets, five rounds after a warm-up.
const texts = [...training, ...heldOut].map(({ text }) => text);
for (const text of texts) judgeFirstMessage(model, signals, text, context);
const times: number[] = [];
for (let round = 0; round < 5; round += 1)
  for (const text of texts) {
    const start = performance.now();
    judgeFirstMessage(model, signals, text, context);
    times.push(performance.now() - start);
  }
times.sort((a, b) => a - b);
const at = (share: number) => times[Math.min(times.length - 1, Math.floor(share * times.length))]!;
console.log(
  `\n## time to decide a first message (${times.length} decisions): ` +
    `p50 ${at(0.5).toFixed(3)} ms, p99 ${at(0.99).toFixed(3)} ms, max ${times.at(-1)!.toFixed(3)} ms`,
);
