// Scam signals (docs/product.md section 7): the words and shapes of the lures that victims
// of personals and romance scams report — moves to a messaging app, asking for money, gift cards or
// codes, crypto "mentors", fake verification sites, selling content, sob stories that end in a fee.
// Editors keep them in content/policy/scam-signals.txt; this module reads that file (with a
// problem for each line it cannot use), compiles it once and finds the signals in a text.
//
// The file, one entry a line (`#` starts a comment):
//   list NAME: word, two words, …          a list of alternatives, used in signals as @NAME
//   FAMILY ACTION: pattern                 a signal: FAMILY one of SCAM_FAMILIES, ACTION refuse|warn
//   FAMILY pass: pattern                   an exception: the family's signals starting inside its
//                                          match, within one clause, do not count ("I'm not on
//                                          WhatsApp", "before moving to an app": a member declining)
// A pattern is words separated by spaces, each one of:
//   a word ("gift", "card")      matched whole, in any case, with look-alike letters and digits
//                                ("c@$happ") and, in words of five letters or more, one stray
//                                space or sign between letters ("tele gram", "c a s h a p p")
//   @NAME                        any entry of the list NAME
//   word?  @NAME?                may be absent (not the first word)
//   …  or  ~N                    up to 3 (…) or N (at most 20) other words in between
//   <handle> <at-handle> <amount> <number> <percent> <spelled-phone>   shapes (scam-patterns.ts)
// The matching is the policy scanner's (normalise.ts): full-width letters, accents, zero-width
// characters and letters of other scripts that look Latin are undone first. Browser-safe.
import { normaliseText, originalRange } from './normalise.ts';
import { foldWord, shapesAt, signalBody, WORD } from './scam-patterns.ts';
import { blankPlaces } from './terms.ts';

export const SCAM_FAMILIES = [
  'off-site-contact',
  'money',
  'crypto',
  'codes',
  'content-sales',
  'scam-story',
] as const;
export type ScamFamily = (typeof SCAM_FAMILIES)[number];

/** The family as members and moderators read it. */
export const SCAM_FAMILY_NAMES: Readonly<Record<ScamFamily, string>> = {
  'off-site-contact': 'off-site contact',
  money: 'money request',
  crypto: 'crypto or investment',
  codes: 'verification or code request',
  'content-sales': 'selling content',
  'scam-story': 'scam story',
};

export const SCAM_ACTIONS = ['refuse', 'warn'] as const;
/** refuse: high confidence (a first message is refused); warn: lower (the recipient is warned). */
export type ScamAction = (typeof SCAM_ACTIONS)[number];

/** What a line of the file does: a signal's action, or `pass`, an exception to its family. */
export const SIGNAL_ACTIONS = [...SCAM_ACTIONS, 'pass'] as const;
export type SignalAction = (typeof SIGNAL_ACTIONS)[number];

/** One signal (or exception) as the file has it. */
export interface ScamSignalEntry {
  family: ScamFamily;
  action: SignalAction;
  pattern: string;
  /** Its line in the file. */
  line: number;
}

/** The file as read: what the build keeps in the compiled content, and the server scans with. */
export interface ScamSignals {
  lists: Readonly<Record<string, readonly string[]>>;
  signals: readonly ScamSignalEntry[];
}

/** A signal found; start and end are offsets in the text as written. */
export interface ScamHit {
  family: ScamFamily;
  action: ScamAction;
  start: number;
  end: number;
}

/** A line of the file that cannot be used; `field` is 'list', 'family', 'action' or 'pattern'. */
export interface ScamSignalProblem {
  line: number;
  field: string;
  message: string;
}

const LIST_NAME = /^[a-z][a-z0-9-]*$/;
const LIST_LINE = /^list\s+([^:]*):(.*)$/i;
const SIGNAL_LINE = /^(\S+)\s+(\S+)\s*:(.*)$/;
/** Reads the signals file; each line it cannot use is a problem, and is left out. */
export function parseScamSignals(text: string): {
  signals: ScamSignals;
  problems: ScamSignalProblem[];
} {
  const lists: Record<string, string[]> = {};
  const signals: ScamSignalEntry[] = [];
  const problems: ScamSignalProblem[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const content = raw.trim();
    if (content === '' || content.startsWith('#')) return;
    const problem = (field: string, message: string) => problems.push({ line, field, message });
    const listLine = LIST_LINE.exec(content);
    if (listLine) {
      const name = listLine[1]!.trim().toLowerCase();
      const entries = listLine[2]!
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter((entry) => entry !== '');
      if (!LIST_NAME.test(name))
        return problem('list', `'${name}' is not a list name (letters, digits and -)`);
      if (lists[name]) return problem('list', `the list '${name}' is already defined above`);
      if (entries.length === 0) return problem('list', `the list '${name}' has no entries`);
      const bad = entries.find((entry) => !/^[\p{L}\p{N}$@' -]+$/u.test(entry));
      if (bad !== undefined) return problem('list', `'${bad}' is not a word or phrase`);
      lists[name] = entries;
      return;
    }
    const signalLine = SIGNAL_LINE.exec(content);
    if (!signalLine)
      return problem('pattern', "is neither 'list NAME: a, b' nor 'FAMILY ACTION: pattern'");
    const [, family, action, pattern] = signalLine as unknown as [string, string, string, string];
    if (!(SCAM_FAMILIES as readonly string[]).includes(family))
      return problem('family', `'${family}' is not one of ${SCAM_FAMILIES.join(', ')}`);
    if (!(SIGNAL_ACTIONS as readonly string[]).includes(action))
      return problem('action', `'${action}' is not one of ${SIGNAL_ACTIONS.join(', ')}`);
    const compiled = signalBody(pattern, lists);
    if ('problem' in compiled) return problem('pattern', compiled.problem);
    signals.push({
      family: family as ScamFamily,
      action: action as SignalAction,
      pattern: pattern.trim(),
      line,
    });
  });
  return { signals: { lists, signals }, problems };
}

interface CompiledSignal {
  family: ScamFamily;
  action: SignalAction;
  /** Sticky: tried at the start of a word the signal can start with. */
  pattern: RegExp;
  /** Words it cannot do without, after the first: one of each set must be in the text. */
  needs: ReadonlySet<string>[];
}

interface CompiledSignals {
  /** The signals by the (folded) word they start with, or `<shape>` for those starting with one. */
  byKey: Map<string, CompiledSignal[]>;
  /** The longest key: words run together ("tele gram", "c a s h") are looked up up to this. */
  longestKey: number;
}

const compiled = new WeakMap<ScamSignals, CompiledSignals>();

// Signals are found word by word rather than with one expression of them all: a word is looked up
// in a map of the words signals start with, and only the few that can start there are tried. The
// cost of a message hardly grows with the list (bench/scam-scan.ts); one expression of a list ten
// times the shipped one is beyond what V8 compiles at all.
function compileSignals(signals: ScamSignals): CompiledSignals {
  let result = compiled.get(signals);
  if (result) return result;
  const byKey = new Map<string, CompiledSignal[]>();
  // One set for each distinct need (a list is used by many signals): checked once a text.
  const needSets = new Map<string, ReadonlySet<string>>();
  const needSet = (keys: string[]) => {
    const id = keys.join(' ');
    let set = needSets.get(id);
    if (!set) needSets.set(id, (set = new Set(keys)));
    return set;
  };
  let longestKey = 0;
  for (const signal of signals.signals) {
    const body = signalBody(signal.pattern, signals.lists);
    if ('problem' in body) continue;
    const entry: CompiledSignal = {
      family: signal.family,
      action: signal.action,
      pattern: new RegExp(body.body, 'iy'),
      needs: body.needs.map(needSet),
    };
    for (const key of new Set(body.keys)) {
      byKey.set(key, [...(byKey.get(key) ?? []), entry]);
      if (!key.startsWith('<')) longestKey = Math.max(longestKey, key.length);
    }
  }
  result = { byKey, longestKey };
  compiled.set(signals, result);
  return result;
}

/**
 * Every scam signal in `text`, in text order, with its offsets in the text as written; a refuse
 * and a warn signal of one family at one place are both there. `places` (the ad's city and state)
 * never count. Pass the same `signals` object on every call: its compiled form is cached.
 */
export function findScamSignals(
  text: string,
  signals: ScamSignals,
  places: readonly string[] = [],
): ScamHit[] {
  const { byKey, longestKey } = compileSignals(signals);
  if (byKey.size === 0) return [];
  const normalised = normaliseText(text);
  const matched = places.length > 0 ? blankPlaces(normalised.text, places) : normalised.text;
  const words = [...matched.matchAll(WORD)].map((match) => ({
    at: match.index,
    word: match[0],
    folded: foldWord(match[0], true),
  }));
  // Each word's keys: its shapes, the word, and the words run together from it ("tele gram",
  // "c a s h a p p"); all of them, for what a signal needs further on.
  const present = new Set<string>();
  const keysAt = words.map(({ at, word }, index) => {
    const keys = shapesAt(matched, word, at);
    let joined = '';
    for (let next = index; next < words.length; next += 1) {
      joined += words[next]!.folded;
      if (joined.length > longestKey) break;
      keys.push(joined);
    }
    for (const key of keys) present.add(key);
    return keys;
  });
  const found = new Map<ReadonlySet<string>, boolean>();
  const inText = (need: ReadonlySet<string>) => {
    let is = found.get(need);
    if (is === undefined) {
      const [small, large] = need.size < present.size ? [need, present] : [present, need];
      is = false;
      for (const key of small)
        if (large.has(key)) {
          is = true;
          break;
        }
      found.set(need, is);
    }
    return is;
  };
  const hits: Array<Omit<ScamHit, 'action'> & { action: SignalAction }> = [];
  const seen = new Set<string>();
  words.forEach(({ at }, index) => {
    for (const key of keysAt[index]!)
      for (const signal of byKey.get(key) ?? []) {
        if (!signal.needs.every(inText)) continue;
        signal.pattern.lastIndex = at;
        const match = signal.pattern.exec(matched);
        if (!match || match[0] === '') continue;
        const end = at + match[0].length;
        const id = `${signal.family} ${signal.action} ${at} ${end}`;
        if (seen.has(id)) continue;
        seen.add(id);
        // An exception holds within one clause: "I'm not on WhatsApp, add me on Telegram".
        if (signal.action === 'pass' && CLAUSE_END.test(match[0])) continue;
        const range = originalRange(normalised, at, end);
        hits.push({ family: signal.family, action: signal.action, ...range });
      }
  });
  return withoutExceptions(hits).sort((a, b) => a.start - b.start || a.end - b.end);
}

// A sign that ends a clause or a sentence, followed by a space or the end.
const CLAUSE_END = /[,.;:!?](?:\s|$)/;

/** The signals, less those that start inside an exception of their family (and the exceptions). */
function withoutExceptions(
  hits: ReadonlyArray<Omit<ScamHit, 'action'> & { action: SignalAction }>,
): ScamHit[] {
  const passes = hits.filter((hit) => hit.action === 'pass');
  const signals: ScamHit[] = [];
  for (const { action, ...hit } of hits) {
    if (action === 'pass') continue;
    const excepted = passes.some(
      (pass) => pass.family === hit.family && hit.start >= pass.start && hit.start < pass.end,
    );
    if (!excepted) signals.push({ ...hit, action });
  }
  return signals;
}
