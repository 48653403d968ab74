// The scam shield's trainer (pipeline/shield/): it learns, it calibrates, and it is deterministic,
// so `npm run train:shield -- --check` can hold the shipped model to its corpus byte for byte.
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { judgeText } from '../../../core/shield/model.ts';
import { fitLogistic, fitPlatt } from '../../../pipeline/shield/learn.ts';
import {
  modelFileText,
  trainShieldModel,
  type TrainingText,
} from '../../../pipeline/shield/train.ts';
import { trainShieldModels } from '../../../pipeline/shield/train-models.ts';

const scams = [
  ['off-site', 'add me on telegram, I rarely log in here'],
  ['off-site', 'text me on whatsapp dear, this site is slow'],
  ['off-site', 'lets move to telegram, my user is rose_88'],
  ['gift-cards-payment-apps', 'could you send me a gift card so I know you are real'],
  ['gift-cards-payment-apps', 'send $50 on cash app for my gas and I will come see you'],
  ['gift-cards-payment-apps', 'buy an apple gift card and send me the code on the back'],
  ['crypto', 'my uncle trades bitcoin, I can show you the platform'],
  ['crypto', 'I made 30% on USDT contracts last month, want to learn?'],
  ['code-theft', 'what is the code you just got on your phone? read it to me'],
  ['code-theft', 'I sent you a six digit code, tell me the numbers to prove you are real'],
] as const;
const ordinary = [
  'Hi! I love hiking too, which trail is your favourite?',
  'Coffee on Saturday? I am a teacher and I bake bread',
  'Your ad made me laugh. I also have a dog named Pepper',
  'I am not on telegram, can we chat here first?',
  'Happy to split the bill, dinner somewhere quiet?',
  'I work in finance but I promise I am fun at parties',
  'Board games at the cafe downtown this week?',
  'Just moved here from Ohio, looking for a running partner',
  'I got the code from the site to verify my email, finally in!',
  'Museum date sounds lovely, the modern wing is my favourite',
];
const corpus: TrainingText[] = [
  ...scams.map(([family, text]) => ({ label: 'scam' as const, family, text })),
  ...ordinary.map((text) => ({ label: 'ordinary' as const, family: 'everyday', text })),
];

describe('learning', () => {
  it('fits a logistic regression that separates what it was given', () => {
    const rows = [0, 1, 2, 3].map((at) => ({
      indexes: Int32Array.of(at % 2),
      values: Float64Array.of(1),
    }));
    const point = fitLogistic(rows, [1, 0, 1, 0], 2, 1e-3);
    expect(point[0]).toBeGreaterThan(1);
    expect(point[1]).toBeLessThan(-1);
  });

  it('calibrates scores into probabilities that rise with the score', () => {
    const { scale } = fitPlatt([-2, -1, -0.5, 0.5, 1, 2], [0, 0, 1, 0, 1, 1]);
    expect(scale).toBeGreaterThan(0);
  });

  it('trains the same model from the same corpus, byte for byte', () => {
    const once = modelFileText(trainShieldModel(corpus, 'messages', 'test'));
    const twice = modelFileText(trainShieldModel(corpus, 'messages', 'test'));
    expect(twice).toBe(once);
    const model = JSON.parse(once);
    expect(model.trainedOn).toMatchObject({ scam: 10, ordinary: 10 });
    expect(judgeText(model, 'add me on telegram').probability).toBeGreaterThan(
      judgeText(model, 'coffee and a hike on Saturday?').probability,
    );
  });

  it('names the family a scam most looks like', () => {
    const model = trainShieldModel(corpus, 'messages', 'test');
    expect(judgeText(model, 'send a gift card on cash app').family).toBe('money');
    expect(judgeText(model, 'telegram me').family).toBe('off-site-contact');
  });
});

describe('npm run train:shield -- --check', () => {
  const contentWith = (messages: readonly TrainingText[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'shield-'));
    mkdirSync(join(dir, 'shield'));
    const csv = (rows: string[][]) =>
      rows.map((row) => row.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(',')).join('\n');
    writeFileSync(
      join(dir, 'shield', 'first-messages.csv'),
      csv([
        ['label', 'family', 'source', 'text'],
        ...messages.map(({ label, family, text }) => [label, family, 'written for a test', text]),
      ]),
    );
    writeFileSync(
      join(dir, 'shield', 'ads.csv'),
      csv([
        ['label', 'family', 'source', 'title', 'description'],
        ...messages.map(({ label, family, text }) => [label, family, 'test', 'An ad', text]),
      ]),
    );
    return dir;
  };

  it('passes on the model its corpus gives, and fails once a line of the corpus changes', () => {
    const dir = contentWith(corpus);
    expect(trainShieldModels(dir, { check: false }).models.map(({ state }) => state)).toEqual([
      'written',
      'written',
    ]);
    expect(trainShieldModels(dir, { check: true }).models.map(({ state }) => state)).toEqual([
      'unchanged',
      'unchanged',
    ]);
    const changed = contentWith([...corpus.slice(1), { ...corpus[0]!, text: 'kik me babe' }]);
    for (const file of ['message-model.json', 'ad-model.json'])
      writeFileSync(join(changed, 'shield', file), readFileSync(join(dir, 'shield', file)));
    expect(trainShieldModels(changed, { check: true }).models.map(({ state }) => state)).toEqual([
      'out of date',
      'out of date',
    ]);
  });

  it('names a corpus line it cannot use by file, line and field, and trains nothing', () => {
    const dir = contentWith([...corpus, { label: 'scam', family: 'phishing', text: 'hello' }]);
    const { problems, models } = trainShieldModels(dir, { check: false });
    expect(models).toEqual([]);
    expect(problems[0]).toMatch(
      /^content\/shield\/ads\.csv:22: family: is not a scam family: one of off-site, /,
    );
    expect(problems[1]).toMatch(/^content\/shield\/first-messages\.csv:22: family: /);
  });
});
