// The scam signals (issue 29): the shipped list finds the lures as scammers write them, leaves the
// same words alone in ordinary messages, and an editor's broken line is named with its line.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  findScamSignals,
  judgeMessage,
  messagePrint,
  parseScamSignals,
  SCAM_FAMILY_NAMES,
  type ScamFamily,
} from '../../../core/policy/index.ts';
import { readScamSignals } from '../../../core/policy/term-files.ts';

const CONTENT = fileURLToPath(new URL('../../../content', import.meta.url));
const { signals, problems } = readScamSignals(CONTENT);
const LA = ['Los Angeles', 'California'];

/** The families found in `text`, once each. */
const families = (text: string, places: readonly string[] = LA) => [
  ...new Set(findScamSignals(text, signals, places).map((hit) => hit.family)),
];
const firstMessage = (text: string) => judgeMessage(text, signals, { places: LA, answered: false });

describe('the shipped list', () => {
  it('has no problems', () => {
    expect(problems).toEqual([]);
    expect(signals.signals.length).toBeGreaterThan(100);
  });

  it.each<[string, ScamFamily]>([
    ['c a s h a p p me for gas', 'money'],
    ['ca$happ me babe', 'money'],
    ['add me on tele gram', 'off-site-contact'],
    ['add me on ｔｅｌｅｇｒａｍ', 'off-site-contact'],
    ['add me on tеlеgram', 'off-site-contact'], // Cyrillic е
    ['what\u200Bsapp me', 'off-site-contact'],
    ['text me five five five 01 nine nine 8 7 6', 'off-site-contact'],
    ['jess22 at gmail', 'off-site-contact'],
    ['amy-meets dot com', 'off-site-contact'],
    ['my snap is jenny_21', 'off-site-contact'],
    ['grab me a Steam card please', 'money'],
    ['tell me the 6 digit code you get', 'codes'],
    ['get verified on my safety site first, small fee', 'codes'],
    ['my crypto fund pays out every week', 'crypto'],
    ['I make 40% weekly', 'crypto'],
    ['subscribe to my 0nlyfans', 'content-sales'],
    ['my account is frozen overseas and I need to pay a fee', 'scam-story'],
  ])('finds %j as %s', (text, family) => {
    expect(families(text)).toContain(family);
  });

  it.each([
    'Card games night at my place, bring snacks',
    'Steam games are my guilty pleasure',
    'I work at a bank downtown',
    'Let me verify my schedule first',
    'Code reviews all week, free on Saturday',
    'My snap peas came up at last',
    'Your line about sunsets made me smile',
    'Signal boost for taco Tuesdays!',
    'I served in the army for six years',
    'I paid $40 for a concert ticket',
    'Oh my, of course!',
    "I'm 5 foot 11, two kids, 42",
    'I got a gift card to a bookstore for my birthday',
  ])('leaves %j alone', (text) => {
    expect(families(text)).toEqual([]);
  });

  it('never counts the ad’s own place', () => {
    expect(
      families('Greetings from Signal Hill, want a walk?', ['Signal Hill', 'California']),
    ).toEqual([]);
    expect(families('Western Union is in my town', ['Western Union', 'Missouri'])).toEqual([]);
    expect(families('Western Union me the fare')).toEqual(['money']);
  });

  it('gives offsets in the text as written', () => {
    const text = 'Hi! ｋｉｋ me';
    const [hit] = findScamSignals(text, signals);
    expect(text.slice(hit!.start, hit!.end)).toBe('ｋｉｋ');
  });
});

describe('what a message gets', () => {
  it('refuses a first message with a refuse signal, saying what to change', () => {
    const verdict = firstMessage('add me on kik: jessy_luv94');
    expect(verdict.refusal?.family).toBe('off-site-contact');
    expect(verdict.refusal?.message).toContain('before the other member has answered you');
  });

  it('warns the recipient of a lower-confidence signal', () => {
    const verdict = firstMessage(
      "I'm deployed overseas and they froze my pay, I need to pay a fee",
    );
    expect(verdict.refusal).toBeUndefined();
    expect(verdict.warnings).toEqual(['scam-story']);
  });

  it('lets off-site contact through once answered, but still warns of money', () => {
    const answered = { places: LA, answered: true };
    expect(judgeMessage('add me on whatsapp', signals, answered)).toMatchObject({
      warnings: [],
    });
    const money = judgeMessage('cashapp me $20 for gas', signals, answered);
    expect(money.refusal).toBeUndefined();
    expect(money.warnings).toEqual(['money']);
  });

  it('names every family in words', () => {
    expect(Object.values(SCAM_FAMILY_NAMES)).toContain('money request');
  });
});

describe('a member declining to move off the site', () => {
  it.each([
    'Could we chat here a bit first, before moving to an app?',
    "I'm not on WhatsApp or Telegram, so here is best for me.",
    "I don't have Snapchat or Instagram, so this site it is.",
    'Can we chat on here for a while?',
  ])('is not refused: %s', (text) => {
    expect(firstMessage(text)).toEqual({ warnings: [], hits: [] });
  });

  it.each([
    "I'm not on WhatsApp, add me on telegram",
    "I don't use Kik. Add me on whatsapp",
    'add me on wechat',
  ])('does not excuse an invitation beside it: %s', (text) => {
    expect(firstMessage(text).refusal?.family).toBe('off-site-contact');
  });
});

describe('an exception (pass) in an editor’s list', () => {
  const parsed = parseScamSignals(
    [
      'list apps: kik, telegram',
      'off-site-contact refuse: @apps',
      'off-site-contact pass: not on @apps',
    ].join('\n'),
  );
  it('takes its family’s signals inside it out, within one clause', () => {
    expect(parsed.problems).toEqual([]);
    expect(findScamSignals('I am not on kik', parsed.signals)).toEqual([]);
    expect(findScamSignals('not on, kik me', parsed.signals)).toHaveLength(1);
    expect(findScamSignals('not on kik, telegram me', parsed.signals)).toMatchObject([
      { family: 'off-site-contact', action: 'refuse', start: 12, end: 20 },
    ]);
  });
});

describe('the larger corpus, first messages as judged', () => {
  const lines = (name: string) =>
    readFileSync(new URL(`../../fixtures/scam-corpus/${name}`, import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const caught = (text: string) => {
    const verdict = firstMessage(text);
    return verdict.refusal !== undefined || verdict.warnings.length > 0;
  };

  it('catches at least 9 in 10 scam messages', () => {
    const scams = lines('more-scam-messages.txt');
    const missed = scams.filter((text) => !caught(text));
    expect(missed.length, missed.join('\n')).toBeLessThanOrEqual(Math.floor(scams.length / 10));
  });

  it('catches every message of the tuning set, and flags none of its ordinary ones', () => {
    const missed = lines('tuning-scam-messages.txt').filter((text) => !caught(text));
    expect(missed, missed.join('\n')).toEqual([]);
    const flagged = lines('tuning-ordinary-messages.txt').filter(caught);
    expect(flagged, flagged.join('\n')).toEqual([]);
  });

  it('refuses none of the ordinary messages that use a lure’s words', () => {
    const refused = lines('tuning-ordinary-lookalike-messages.txt').filter(
      (text) => firstMessage(text).refusal !== undefined,
    );
    expect(refused, refused.join('\n')).toEqual([]);
  });

  it('flags at most 1 in 30 ordinary messages', () => {
    const ordinary = lines('more-ordinary-messages.txt');
    const flagged = ordinary.filter(caught);
    expect(flagged.length, flagged.join('\n')).toBeLessThanOrEqual(
      Math.floor(ordinary.length / 30),
    );
  });
});

describe('the same message', () => {
  it('has one print whatever the case, spacing, signs or look-alike letters', () => {
    expect(messagePrint('Hi there!!  Love your ad.')).toBe(messagePrint('hi there love your ad'));
    expect(messagePrint('Hеllo')).toBe(messagePrint('hello')); // Cyrillic е
    expect(messagePrint('hi there')).not.toBe(messagePrint('hi where'));
  });
});

describe('an editor’s broken line', () => {
  it('is named with its line and field, and left out', () => {
    const parsed = parseScamSignals(
      [
        '# comment',
        'list apps: kik, telegram',
        'money refuse: @apps me',
        'mony refuse: cash',
        'money block: cash',
        'money refuse: @nolist me',
        'money refuse: … cash',
        'money warn: cash <size>',
        'list apps: again',
        'just words',
        'money refuse: cash me?',
      ].join('\n'),
    );
    expect(parsed.problems).toEqual([
      {
        line: 4,
        field: 'family',
        message:
          "'mony' is not one of off-site-contact, money, crypto, codes, content-sales, scam-story",
      },
      { line: 5, field: 'action', message: "'block' is not one of refuse, warn, pass" },
      { line: 6, field: 'pattern', message: "no list 'nolist' above this line" },
      { line: 7, field: 'pattern', message: "'…' cannot start a pattern" },
      {
        line: 8,
        field: 'pattern',
        message: expect.stringContaining('unknown shape <size>'),
      },
      { line: 9, field: 'list', message: "the list 'apps' is already defined above" },
      {
        line: 10,
        field: 'pattern',
        message: "is neither 'list NAME: a, b' nor 'FAMILY ACTION: pattern'",
      },
    ]);
    expect(parsed.signals.signals.map((signal) => signal.line)).toEqual([3, 11]);
  });
});
