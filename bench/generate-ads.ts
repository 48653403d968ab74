// Deterministic generator of SAMPLE personal ads (docs/product.md, sections 2 and 4).
// Used once to write content/ads/sample.csv and by benchmarks that need many ads.
// Pure: no I/O, no Math.random, no Date.now; the same options always give the same ads.
// Every text pool below is hand-written to stay plain and non-explicit, with no money talk,
// no contact details, no brand names and no policy term (content/policy/*-terms.txt);
// callers still check the output with findFirstPolicyTerm (see scripts/generate-sample-ads.ts).

import type { Seeks } from '../core/schemas/ad.ts';
import { findFirstPolicyTerm, type PolicyTerms } from '../core/policy/terms.ts';
import { mulberry32 } from './seeded-random.ts';

export type { Seeks };

export interface GeneratedAd {
  id: number;
  state: string;
  city: string;
  age: number;
  seeks: Seeks;
  title: string;
  description: string;
  images: string;
  featured: boolean;
  postedAt: string;
  expiresAt: string;
  sample: boolean;
}

export interface AdGenerationOptions {
  seed: number;
  count: number;
  cities: ReadonlyArray<{ state: string; city: string; weight: number }>;
  firstId: number;
  /** YYYY-MM-DD, inclusive */
  postedFrom: string;
  /** YYYY-MM-DD, inclusive */
  postedTo: string;
  /** 0..1 */
  featuredShare: number;
  sample: boolean;
  /**
   * The policy terms of content/policy/: city names matching one (there is a real "Minor",
   * Alabama) are never written into a title or description.
   */
  policyTerms: PolicyTerms;
}

// ---------------------------------------------------------------------------------------------
// Randomness

type Rng = () => number;

/** Scrambles the seed so that nearby seeds (1, 2, 3...) give unrelated streams. */
function scrambleSeed(seed: number): number {
  let h = (Math.trunc(seed) ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

const intBetween = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
const pick = <T>(rng: Rng, items: ReadonlyArray<T>): T =>
  items[Math.floor(rng() * items.length)] as T;

interface WeightTable<T> {
  values: T[];
  cumulative: number[];
  total: number;
}

function table<T>(items: ReadonlyArray<readonly [T, number]>): WeightTable<T> {
  const values: T[] = [];
  const cumulative: number[] = [];
  let total = 0;
  for (const [value, weight] of items) {
    total += weight;
    values.push(value);
    cumulative.push(total);
  }
  return { values, cumulative, total };
}

function weighted<T>(rng: Rng, t: WeightTable<T>): T {
  const r = rng() * t.total;
  const last = t.values.length - 1;
  for (let i = 0; i < last; i++) if (r < (t.cumulative[i] as number)) return t.values[i] as T;
  return t.values[last] as T;
}

// ---------------------------------------------------------------------------------------------
// Text pools. Tokens in braces are filled per ad (see AdContext). A fragment may carry an age
// range for the poster (a retiree line is not for a 24-year-old).

type Intent = 'ltr' | 'date' | 'friends' | 'activity';

interface Fragment {
  text: string;
  min?: number;
  max?: number;
  /** Says what the poster does for a living: one such line per ad. */
  job?: boolean;
}
const frag = (text: string, min?: number, max?: number): Fragment => ({ text, min, max });
const job = (text: string, min?: number, max?: number): Fragment => ({ text, min, max, job: true });

interface Activity {
  partner: string; // "hiking partner"
  verb: string; // "hit the trails"
  gerund: string; // "hiking"
}

const ACTIVITIES: ReadonlyArray<Activity> = [
  { partner: 'hiking partner', verb: 'hit the trails', gerund: 'hiking' },
  { partner: 'concert buddy', verb: 'catch live shows', gerund: 'live music' },
  { partner: 'trivia teammate', verb: 'take on pub trivia', gerund: 'trivia night' },
  { partner: 'tennis partner', verb: 'rally on the tennis courts', gerund: 'tennis' },
  { partner: 'running buddy', verb: 'do early morning runs', gerund: 'running' },
  { partner: 'board game friend', verb: 'play board games', gerund: 'board games' },
  { partner: 'climbing partner', verb: 'boulder at the climbing gym', gerund: 'climbing' },
  { partner: 'riding buddy', verb: 'go on long bike rides', gerund: 'cycling' },
  { partner: 'dance partner', verb: 'take a beginner salsa class', gerund: 'salsa dancing' },
  {
    partner: 'museum buddy',
    verb: 'wander through museums and galleries',
    gerund: 'museum hopping',
  },
  { partner: 'pickleball partner', verb: 'play pickleball', gerund: 'pickleball' },
  { partner: 'paddling partner', verb: 'get out on the water in a kayak', gerund: 'kayaking' },
  { partner: 'photo walk buddy', verb: 'go on slow photo walks', gerund: 'photo walks' },
  { partner: 'cooking partner', verb: 'try new recipes', gerund: 'cooking' },
  {
    partner: 'language exchange partner',
    verb: 'practice Spanish over coffee',
    gerund: 'language exchange',
  },
  { partner: 'chess opponent', verb: 'play chess in the park', gerund: 'chess' },
  { partner: 'movie buddy', verb: 'catch indie films and old classics', gerund: 'movie nights' },
  { partner: 'book club member', verb: 'talk about a good book over coffee', gerund: 'book club' },
  { partner: 'golf partner', verb: 'play nine holes of golf', gerund: 'golf' },
  { partner: 'camping buddy', verb: 'go camping', gerund: 'camping' },
  { partner: 'karaoke partner', verb: 'sing badly at karaoke night', gerund: 'karaoke' },
  { partner: 'fishing buddy', verb: 'go fishing', gerund: 'fishing' },
  { partner: 'volunteering buddy', verb: 'volunteer at the food bank', gerund: 'volunteering' },
  { partner: 'yoga buddy', verb: 'try the different yoga classes around {city}', gerund: 'yoga' },
];

const INTERESTS: ReadonlyArray<string> = [
  'hiking',
  'live music',
  'trivia nights',
  'cooking for friends',
  'baking bread',
  'gardening',
  'old movies',
  'documentaries',
  'crossword puzzles',
  'board games',
  'road trips',
  'camping',
  'kayaking',
  'yoga',
  'running',
  'cycling',
  'rock climbing',
  'photography',
  'painting',
  'pottery',
  'mystery novels',
  'science fiction',
  'history podcasts',
  'jazz',
  'country music',
  'vinyl records',
  'farmers markets',
  'trying new restaurants',
  'quiet coffee shops',
  'craft beer',
  'wine tasting',
  'tennis',
  'pickleball',
  'golf',
  'fishing',
  'bird watching',
  'stargazing',
  'chess',
  'woodworking',
  'dancing',
  'karaoke',
  'stand-up comedy',
  'community theater',
  'museums',
  'learning languages',
  'volunteering',
  'dogs',
  'cats',
  'baseball games',
  'college football',
  'pickup basketball',
  'swimming',
  'beach days',
  'snowboarding',
  'video games',
  'knitting',
  'home improvement projects',
  'poetry',
  'long walks with a good podcast',
  'sunrise hikes',
  'classic cars',
  'bluegrass',
  'spicy food',
  'card games',
  'watercolor painting',
  'fixing up old bikes',
];

const INTEREST_LINES: ReadonlyArray<string> = [
  "I'm into {i1}, {i2} and {i3}.",
  'Lately my spare time goes to {i1} and {i2}.',
  'Things I love: {i1}, {i2}, {i3}.',
  "Big fan of {i1} and {i2}, and I'm always up for {i3}.",
  'My weekends are usually some mix of {i1}, {i2} and {i3}.',
  'A few things I enjoy: {i1}, {i2}, and {i3}.',
  "If you're into {i1} or {i2}, we'll have plenty to talk about.",
  'Current obsessions: {i1} and {i2}.',
  'When I have a day off, it probably involves {i1} or {i2}.',
  "I'm happiest with {i1}, {i2} and good company.",
  "You'll usually find me somewhere around {city} enjoying {i1} or {i2}.",
  'Some favorites: {i1}, {i2}, {i3}. I could talk about any of them for hours.',
  "I've recently gotten into {i1}, and I'm still a big fan of {i2}.",
  "Ask me about {i1} or {i2} and I'll happily ramble.",
];

const OPENERS: ReadonlyArray<Fragment> = [
  frag('Hi there!'),
  frag('Hello, {city}!'),
  frag('Hey, thanks for clicking.'),
  frag('Not great at writing these, but here goes.'),
  frag('First time posting here, so bear with me.'),
  frag('Trying something different this year and putting myself out there.'),
  frag("Okay, deep breath. Here's a little about me."),
  frag("Hi! I'll keep this short-ish."),
  frag('Good morning, or evening, whenever you happen to read this.'),
  frag('A friend talked me into posting, so here I am.'),
  frag('Hello from {city}.'),
  frag('Writing about yourself is strange, but let me try.'),
  frag("Hi, I'm a {age}-year-old {me} here in {city}."),
  frag("Hi, I'm {age} and I live in {city}."),
  frag("Hi, I'm a {age}-year-old {me}."),
  frag('Let me skip the small talk and tell you a bit about myself.'),
];

const ABOUT: ReadonlyArray<Fragment> = [
  job(
    'I work in healthcare, mostly night shifts, so I appreciate people who are flexible about plans.',
    24,
  ),
  job("I'm a carpenter and spend most days building things with my hands."),
  job("I work in IT and stare at screens more than I'd like, so I get outside whenever I can."),
  job(
    "I'm a paramedic. The job keeps me busy, but my days off are for good food and good people.",
    23,
    55,
  ),
  job("I manage a small bakery and I'm always testing new recipes on my friends.", 25),
  job("I'm a librarian, so yes, I will recommend a book whether you ask or not.", 25),
  job(
    "I'm a mechanic who likes tinkering with old trucks and fixing things other people gave up on.",
  ),
  job(
    "I'm a graphic designer with strong opinions about fonts and mild opinions about everything else.",
  ),
  job('I work for the parks department and know most of the good trails around {city}.'),
  frag("I've lived in {city} for about {years} years and I still find new corners of it.", 27),
  frag('Born and raised in {city}, and I still love showing people around.'),
  frag('I moved to {city} a few years ago for work and decided to stay.', 25),
  job("I'm a retired firefighter who now has plenty of time for the garden.", 56),
  job("I'm semi-retired and finally making time for the hobbies I put off for years.", 55),
  job(
    "I'm finishing a graduate degree in public health and will happily talk your ear off about it.",
    22,
    36,
  ),
  job("I'm in my last year of college and figuring out what comes next.", 19, 24),
  frag(
    "I'm divorced, on good terms with my ex, and ready to put some energy into something new.",
    32,
  ),
  frag("I'm an introvert at first but pretty chatty once I get comfortable."),
  frag('Friends describe me as calm, a little goofy, and dependable.'),
  frag("I'm the friend who remembers birthdays and shows up with soup when you're sick."),
  frag("I'm honest, patient, and I laugh easily, including at myself."),
  frag("I'm an early riser; my best hours are before nine in the morning."),
  frag("I'm a night owl and do some of my best thinking late in the evening."),
  frag("I don't take myself too seriously, but I do take kindness seriously."),
  frag("I'm a homebody during the week and an explorer on the weekends."),
  frag('I have a rescue dog named {dog} who will probably like you before I do.'),
  frag('I share my apartment with two very opinionated cats.'),
  frag("I'm close with my family and try to make it to Sunday dinner most weeks."),
  job("I'm a veteran and these days I work in logistics.", 24),
  job("I'm a chef, so fair warning: I will have opinions about where we eat.", 23),
  job('I work remotely, which means I know every coffee shop in {city} with decent wifi.'),
  job("I'm a pharmacist with a soft spot for terrible puns.", 26),
  job("I'm a hairstylist and I love hearing people's stories."),
  job("I'm an electrician and I spend my weekends restoring an old motorcycle.", 22),
  job("I'm a social worker. I care a lot about my community and the people in it.", 24),
  job("I'm a physical therapist and, yes, I will remind you to stretch.", 25),
  frag('I play guitar in a small cover band that mostly plays backyard parties.'),
  job("I'm a project manager, which makes me good at planning and bad at sitting still.", 26),
  job("I work in a research lab, and I'm happiest when I'm learning something new.", 23),
  job(
    "I drive trucks for a living, so I've seen a lot of this country and love telling stories about it.",
    24,
  ),
  job('I work in a plant nursery, so my apartment looks like a small jungle.'),
  frag("I'm sober and happy to do things that don't revolve around drinks."),
  frag("I don't smoke, I drink socially, and I try to get to the gym a few times a week."),
  frag("I'm a pretty good cook and a terrible singer, but I do both with enthusiasm."),
  frag("I'm single again after a long relationship and taking things one step at a time.", 26),
  frag("I'm a bit of a nerd about maps and history and can get lost in a good documentary."),
  frag("I'm an optimist, even on Mondays."),
  frag('I value honesty, good manners and a sense of humor.'),
  frag("I'm writing my first novel, very slowly, one early morning at a time."),
  job('I work in construction management and like a good plan and a good laugh.', 28),
  job("I'm a vet tech and spend my days around dogs, cats and the occasional rabbit."),
  job(
    'I work odd hours as a flight attendant, so I make the most of my time at home in {city}.',
    23,
  ),
  job("I'm a welder by trade and a pretty decent home cook by choice.", 21),
  frag("I'm a middle-of-the-road sports fan: I'll watch the game, but I won't cry about it."),
  frag("I'm happiest outdoors, whatever the weather is doing."),
  frag("I've been told I give good advice and make a great grilled cheese."),
];

const LOOKING: Readonly<Record<Intent, ReadonlyArray<string>>> = {
  ltr: [
    "I'm looking for {targetA} who wants something long-term and is happy to build it slowly.",
    "I'd love to meet {targetA} who is kind, curious and ready for a real relationship.",
    'Hoping to find a partner for the long haul: someone steady, honest and good at communicating.',
    'I want the kind of relationship where we cheer each other on and still make each other laugh years from now.',
    'Looking for {targetA} roughly between {ageLo} and {ageHi} who values loyalty and wants to build a life with someone.',
    "If you're {targetA} who's done with games and wants a genuine connection, I'd like to hear from you.",
    "Ideally we'd start with coffee somewhere in {city} and see if there's something worth building.",
    "I'm ready for a committed relationship with {targetA} who knows what they want.",
    "I'm after a real partnership: shared plans, lazy Sundays, and someone to talk to at the end of the day.",
  ],
  date: [
    "I'd like to meet {targetA} for dinner, good conversation and maybe a second date if it clicks.",
    'Looking to go on some real dates: a walk, a drink, a museum, whatever sounds good to you.',
    "Let's grab coffee somewhere in {city} and see if we get along.",
    "I'm hoping to meet {targetA} to explore {city} with, one date at a time.",
    'No pressure, no rush, just two people seeing if there is a spark over tacos.',
    "I'm open to dating and seeing where things go with {targetA} who is warm and easy to talk to.",
    "I'd love a dinner date with someone who asks questions and actually listens to the answers.",
    'Looking for {targetA} around {ageLo} to {ageHi} who likes trying new places as much as I do.',
  ],
  friends: [
    "Mostly I'm looking for new friends: people to grab lunch with, trade book recommendations with, and call when the car breaks down.",
    "Strictly platonic: I'd like to meet {targetA} who enjoys {i1} and wants a new friend.",
    'Friendship first and only, no expectations.',
    "I'd love to build a small circle of friends in {city} for dinners, game nights and the occasional road trip.",
    "I'm looking for a friend who's up for last-minute plans and long conversations.",
    "Adult friendships are hard to start, so I'm trying the direct approach: want to be friends?",
    'Looking for a regular walking and coffee friend, someone easy to talk to.',
  ],
  activity: [
    "I'm looking for a {partner}, someone who'd like to {verb} a few times a month.",
    "Looking for a {partner} in {city}. All skill levels welcome; I'm no expert either.",
    'My usual crew for {gerund} has scattered, so I need a new {partner}.',
    "If you'd like to {verb} and don't mind a little small talk along the way, let's team up.",
    "Hoping to find a reliable {partner} who shows up on time and doesn't mind my bad jokes.",
    "Let's {verb} sometime and see if we'd make a good team.",
    "I'd like to meet {targetA} who'd enjoy {gerund} with me. Friendship first, and we'll see from there.",
  ],
};

const EXTRAS: ReadonlyArray<string> = [
  'Non-smoker preferred.',
  'Must be okay with dogs.',
  'Kindness matters more to me than anything on a checklist.',
  "I'd prefer someone within half an hour of {city}.",
  'Good manners and a sense of humor go a long way with me.',
  "Honesty is a must; I'll always return the favor.",
  "I'm patient, and I'm looking for someone who is too.",
  "I don't mind if you're shy; I can carry the conversation for both of us at first.",
  'Bonus points if you can recommend a good breakfast spot.',
  'Bonus points if you know the best tacos in {city}.',
  "I'm a good listener and I hope you are too.",
  'Someone who is kind to servers and strangers, please.',
];

const CLOSERS: ReadonlyArray<string> = [
  'If this sounds like you, send me a message and tell me about your week.',
  'Reply with your favorite spot in {city} so I know you read this far.',
  "Message me and let's start with a conversation.",
  'Say hi and tell me the best thing you ate this month.',
  "If you made it this far, you're already my kind of person. Say hello.",
  'Looking forward to hearing from you.',
  'Drop me a line and tell me a bit about yourself.',
  "Tell me what you're reading, watching or listening to lately.",
  "Please include a little about yourself in your reply; one-word messages won't get an answer.",
  'First meeting somewhere public, of course.',
  'Thanks for reading, and good luck out there.',
  'Hope to hear from you soon.',
  "Reply with your go-to karaoke song and you've got my attention.",
  'No pressure. If we click, great; if not, no hard feelings.',
  'Write me back and we can go from there.',
  "Let's meet for coffee somewhere public in {city} first and go from there.",
  'Start your reply with the word "{word}" so I know you read this.',
  'Tell me your idea of a perfect Saturday.',
  "Say hello, and let's see if we get along.",
  'Take care, and I hope to hear from you.',
  'I answer every thoughtful message.',
  'Cheers, and thanks for stopping by.',
  "Tell me one thing you'd show a visitor in {city}.",
];

const TITLES: Readonly<Record<Intent, ReadonlyArray<string>>> = {
  ltr: [
    'Looking for my person in {city}',
    '{Me} seeking {targetA} for something real',
    'Ready for something long-term',
    '{ageMe} seeking a genuine connection',
    'Seeking a long-term relationship in {city}',
    "Let's build something that lasts",
    'Still believe in slow-burn romance',
    '{ageMe}: looking for love, not games',
    'Hopeless romantic seeks {targetA}',
    'Looking for {targetA} to share Sunday mornings with',
    'Honest {me} hoping to meet {targetA}',
    'Want a partner, not a pen pal',
    'Coffee first, forever maybe?',
    'Steady {me} ready for a committed relationship',
  ],
  date: [
    'Dinner and good conversation?',
    '{ageMe} looking for dates in {city}',
    "Let's grab coffee in {city}",
    'Taco night date, anyone?',
    '{Me} seeking {targetA} for real dates',
    'Museum date on a rainy Saturday?',
    'Looking for a second-date kind of person',
    "Let's explore {city} together",
    'Ice cream and a long walk?',
    'Date night with someone new?',
    'Bookish {me} seeks {targetA} for dinner dates',
    'Farmers market date this weekend?',
  ],
  friends: [
    'Looking for new friends in {city}',
    '{ageMe} seeking platonic friends',
    'Friend wanted: must like {i1}',
    "Let's be friends who actually make plans",
    'Need a friend for weekend adventures',
    'Seeking friendship, nothing more',
    'Adult friendships are hard, so here I am',
    'Coffee friend wanted in {city}',
    '{Me} seeking {targetFriends}',
    'New friends for game nights and walks?',
  ],
  activity: [
    '{Partner} wanted in {city}',
    'Looking for a {partner}',
    '{ageMe} seeking a {partner}',
    'Anyone up for {gerund} this weekend?',
    'Need a {partner} who likes early starts',
    '{Gerund} buddy wanted',
    'Seeking a {partner} for weekends',
    'Join me for {gerund}?',
    '{city} {partner} wanted',
    'Weekend {gerund}, better with two',
    'New {partner} needed, all levels welcome',
    '{Me} seeking a {partner} in {city}',
  ],
};

const DOG_NAMES: ReadonlyArray<string> = [
  'Biscuit',
  'Pepper',
  'Juniper',
  'Moose',
  'Olive',
  'Waffles',
  'Scout',
  'Maple',
  'Rocket',
  'Hazel',
];
const CHECK_WORDS: ReadonlyArray<string> = [
  'pancakes',
  'sunflower',
  'blue',
  'pineapple',
  'porch',
  'lighthouse',
];

const SEEKS_WEIGHTS = table<Seeks>([
  ['w4m', 30],
  ['m4w', 32],
  ['m4m', 11],
  ['w4w', 10],
  ['t4m', 5],
  ['m4t', 4],
  ['t4w', 3],
  ['w4t', 2],
  ['t4t', 3],
]);

const INTENT_WEIGHTS = table<Intent>([
  ['ltr', 32],
  ['date', 30],
  ['friends', 14],
  ['activity', 24],
]);

interface Identity {
  me: string; // "woman", "guy", "trans woman"
  short: string; // "F", "M" or "" for trans posters
}

function posterIdentity(rng: Rng, letter: string): Identity {
  if (letter === 'w') return { me: 'woman', short: 'F' };
  if (letter === 'm') return { me: rng() < 0.6 ? 'man' : 'guy', short: 'M' };
  return { me: rng() < 0.7 ? 'trans woman' : 'trans man', short: '' };
}

const TRANS_TARGET_WEIGHTS = table([
  ['a trans woman', 5],
  ['a trans man', 2],
  ['a trans or nonbinary person', 2],
] as const);

function targetPhrases(rng: Rng, letter: string): { targetA: string; targetFriends: string } {
  if (letter === 'w')
    return { targetA: rng() < 0.8 ? 'a woman' : 'a lady', targetFriends: 'female friends' };
  if (letter === 'm')
    return { targetA: rng() < 0.6 ? 'a man' : 'a guy', targetFriends: 'male friends' };
  const targetA = weighted(rng, TRANS_TARGET_WEIGHTS);
  return { targetA, targetFriends: 'trans friends' };
}

// ---------------------------------------------------------------------------------------------
// Composition. Templates are compiled once into literal/token parts; the per-ad path creates
// no closures (tsx/esbuild wraps every named closure, which is slow in a loop of 100,000).

interface AdContext {
  city: string;
  age: string;
  me: string;
  Me: string;
  ageMe: string;
  targetA: string;
  targetFriends: string;
  partner: string;
  Partner: string;
  verb: string;
  gerund: string;
  Gerund: string;
  i1: string;
  i2: string;
  i3: string;
  ageLo: string;
  ageHi: string;
  years: string;
  dog: string;
  word: string;
}
type TokenKey = keyof AdContext;
const TOKEN_KEYS: ReadonlySet<string> = new Set<TokenKey>([
  'city',
  'age',
  'me',
  'Me',
  'ageMe',
  'targetA',
  'targetFriends',
  'partner',
  'Partner',
  'verb',
  'gerund',
  'Gerund',
  'i1',
  'i2',
  'i3',
  'ageLo',
  'ageHi',
  'years',
  'dog',
  'word',
]);

interface Template {
  text: string;
  /** literals[0] key[0] literals[1] key[1] ... literals[n] */
  literals: string[];
  keys: TokenKey[];
  hasCity: boolean;
  min: number;
  max: number;
  job: boolean;
}

function compile(fragment: string | Fragment): Template {
  const f = typeof fragment === 'string' ? ({ text: fragment } as Fragment) : fragment;
  const literals: string[] = [];
  const keys: TokenKey[] = [];
  const re = /\{(\w+)\}/g;
  let last = 0;
  for (let m = re.exec(f.text); m; m = re.exec(f.text)) {
    const key = m[1] as string;
    if (!TOKEN_KEYS.has(key))
      throw new Error(`generate-ads: unknown token {${key}} in "${f.text}"`);
    literals.push(f.text.slice(last, m.index));
    keys.push(key as TokenKey);
    last = m.index + m[0].length;
  }
  literals.push(f.text.slice(last));
  return {
    text: f.text,
    literals,
    keys,
    hasCity: keys.includes('city'),
    min: f.min ?? 0,
    max: f.max ?? 999,
    job: f.job ?? false,
  };
}

function compilePool(pool: ReadonlyArray<string | Fragment>): Template[] {
  return pool.map(compile);
}

function fill(t: Template, ctx: AdContext): string {
  let out = t.literals[0] as string;
  for (let i = 0; i < t.keys.length; i++)
    out += ctx[t.keys[i] as TokenKey] + (t.literals[i + 1] as string);
  return out;
}

const P_TITLES: Readonly<Record<Intent, Template[]>> = {
  ltr: compilePool(TITLES.ltr),
  date: compilePool(TITLES.date),
  friends: compilePool(TITLES.friends),
  activity: compilePool(TITLES.activity),
};
const P_LOOKING: Readonly<Record<Intent, Template[]>> = {
  ltr: compilePool(LOOKING.ltr),
  date: compilePool(LOOKING.date),
  friends: compilePool(LOOKING.friends),
  activity: compilePool(LOOKING.activity),
};
const P_OPENERS = compilePool(OPENERS);
const P_ABOUT = compilePool(ABOUT);
const P_INTEREST_LINES = compilePool(INTEREST_LINES);
const P_EXTRAS = compilePool(EXTRAS);
const P_CLOSERS = compilePool(CLOSERS);
const ACTIVITY_VERBS = ACTIVITIES.map((a) => compile(a.verb));
const NO_CITY_YOGA_VERB = 'try a few yoga classes';

const upperFirst = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);

/** Per-ad picking state: city mentions left, one job line, no repeated template. */
interface PickState {
  rng: Rng;
  age: number;
  cityBudget: number;
  jobTaken: boolean;
  used: Template[];
}

function eligible(s: PickState, t: Template): boolean {
  if (s.age < t.min || s.age > t.max) return false;
  if (t.job && s.jobTaken) return false;
  if (t.hasCity && s.cityBudget <= 0) return false;
  return !s.used.includes(t);
}

function take(s: PickState, pool: ReadonlyArray<Template>): Template {
  let chosen: Template | undefined;
  for (let attempt = 0; attempt < 40 && !chosen; attempt++) {
    const t = pick(s.rng, pool);
    if (eligible(s, t)) chosen = t;
  }
  // Pools are large, so this is practically never reached: take the first eligible entry.
  if (!chosen) chosen = pool.find((t) => eligible(s, t));
  if (!chosen) throw new Error('generate-ads: a text pool has no eligible entry');
  if (chosen.hasCity) s.cityBudget--;
  if (chosen.job) s.jobTaken = true;
  s.used.push(chosen);
  return chosen;
}

const TITLE_MIN = 15;
const TITLE_MAX = 80;
const DESC_MIN = 120;
const DESC_MAX = 900;

const CITY_BUDGET_WEIGHTS = table([
  [0, 25],
  [1, 55],
  [2, 20],
] as const);
const ABOUT_COUNT_WEIGHTS = table([
  [1, 30],
  [2, 50],
  [3, 20],
] as const);
const LAYOUT_WEIGHTS = table([
  [' ', 50],
  ['\n\n', 40],
  ['\n', 10],
] as const);

interface Composed {
  title: string;
  description: string;
}

interface DescriptionParts {
  opener: string;
  first: string[];
  second: string[];
  interestLine: string;
  looking: string;
  extra: string;
  closer: string;
  separator: string;
}

function sentences(lead: string, lines: ReadonlyArray<string>, tail: string): string {
  let out = lead;
  for (const line of lines) out = out ? `${out} ${line}` : line;
  return tail ? (out ? `${out} ${tail}` : tail) : out;
}

function buildDescription(p: DescriptionParts): string {
  const sep = p.separator;
  return (
    sentences(p.opener, p.first, '') +
    sep +
    sentences('', p.second, p.interestLine) +
    sep +
    (p.extra ? `${p.looking} ${p.extra}` : p.looking) +
    sep +
    p.closer
  );
}

function composeText(
  rng: Rng,
  seeks: Seeks,
  age: number,
  city: string,
  cityInText: boolean,
): Composed {
  const identity = posterIdentity(rng, seeks.charAt(0));
  const target = targetPhrases(rng, seeks.charAt(2));
  const intent = weighted(rng, INTENT_WEIGHTS);
  const activityIndex = Math.floor(rng() * ACTIVITIES.length);
  const activity = ACTIVITIES[activityIndex] as Activity;
  const state: PickState = {
    rng,
    age,
    cityBudget: cityInText ? weighted(rng, CITY_BUDGET_WEIGHTS) : 0,
    jobTaken: false,
    used: [],
  };

  const i1 = pick(rng, INTERESTS);
  let i2 = pick(rng, INTERESTS);
  while (i2 === i1) i2 = pick(rng, INTERESTS);
  let i3 = pick(rng, INTERESTS);
  while (i3 === i1 || i3 === i2) i3 = pick(rng, INTERESTS);

  const ageLo = Math.max(21, age - intBetween(rng, 4, 9));
  const ageHi = Math.max(ageLo + 6, Math.min(75, age + intBetween(rng, 3, 9)));
  const Me = upperFirst(identity.me);

  const ctx: AdContext = {
    city,
    age: String(age),
    me: identity.me,
    Me,
    ageMe: identity.short ? `${age}${identity.short}` : `${Me} (${age})`,
    targetA: target.targetA,
    targetFriends: target.targetFriends,
    partner: activity.partner,
    Partner: upperFirst(activity.partner),
    verb: activity.verb,
    gerund: activity.gerund,
    Gerund: upperFirst(activity.gerund),
    i1,
    i2,
    i3,
    ageLo: String(ageLo),
    ageHi: String(ageHi),
    years: String(intBetween(rng, 2, Math.max(2, Math.min(20, age - 20)))),
    dog: pick(rng, DOG_NAMES),
    word: pick(rng, CHECK_WORDS),
  };
  // {verb} may itself mention {city} (yoga): resolve it first.
  const verb = ACTIVITY_VERBS[activityIndex] as Template;
  if (verb.hasCity) ctx.verb = cityInText ? fill(verb, ctx) : NO_CITY_YOGA_VERB;

  // Title: a pattern for the intent, retried until it fits 15..80 characters.
  let title = '';
  for (let attempt = 0; attempt < 12 && !title; attempt++) {
    const t = upperFirst(fill(take(state, P_TITLES[intent]), ctx));
    if (t.length >= TITLE_MIN && t.length <= TITLE_MAX) title = t;
  }
  if (!title)
    title =
      intent === 'activity'
        ? upperFirst(`Looking for a ${activity.partner}`)
        : 'Looking to meet someone kind';

  // Description: opener + about me, more about me + interests, looking for (+ extra), closer.
  const opener = rng() < 0.55 ? fill(take(state, P_OPENERS), ctx) : '';
  const aboutCount = weighted(rng, ABOUT_COUNT_WEIGHTS);
  const about: string[] = [];
  for (let i = 0; i < aboutCount; i++) about.push(fill(take(state, P_ABOUT), ctx));
  const interestLine = fill(take(state, P_INTEREST_LINES), ctx);
  const looking = fill(take(state, P_LOOKING[intent]), ctx);
  const extra = rng() < 0.45 ? fill(take(state, P_EXTRAS), ctx) : '';
  const closer = fill(take(state, P_CLOSERS), ctx);
  // Some about-me lines move to the second paragraph, next to the interests.
  const split = about.length > 1 && rng() < 0.5 ? about.length - 1 : about.length;
  const parts: DescriptionParts = {
    opener,
    first: about.slice(0, split),
    second: about.slice(split),
    interestLine,
    looking,
    extra,
    closer,
    separator: weighted(rng, LAYOUT_WEIGHTS),
  };

  let description = buildDescription(parts);
  // Drop optional pieces until the description fits (long city names).
  while (description.length > DESC_MAX) {
    if (parts.extra) parts.extra = '';
    else if (parts.second.length) parts.second = [];
    else if (parts.opener) parts.opener = '';
    else if (parts.first.length > 1) parts.first = parts.first.slice(0, 1);
    else break;
    description = buildDescription(parts);
  }
  if (description.length > DESC_MAX) {
    const cut = description.slice(0, DESC_MAX);
    description = cut.slice(0, Math.max(cut.lastIndexOf('.') + 1, DESC_MIN));
  }
  if (description.length < DESC_MIN) {
    // Unreachable with the pools above (the mandatory parts alone exceed 120), kept as a guard.
    description = `${description} Kindness and good manners matter most to me. Thanks for reading.`;
  }
  // Reading a character flattens V8's concatenation trees now, so 100,000 ads keep one string
  // each instead of dozens of small pieces for the garbage collector to trace (about 15% faster).
  description.charCodeAt(0);
  title.charCodeAt(0);
  return { title, description };
}

// ---------------------------------------------------------------------------------------------
// Dates

const DAY_MS = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseDay(value: string, name: string): number {
  const m = DATE_RE.exec(value);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    throw new Error(`generateAds: ${name} must be a valid YYYY-MM-DD date, got "${value}"`);
  }
  return ms / DAY_MS;
}

const formatDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

// ---------------------------------------------------------------------------------------------

function sampleAge(rng: Rng): number {
  // 70% in 25..45, peaked in the mid-thirties; the rest spread over 19..68.
  if (rng() < 0.7) return 25 + Math.floor(((rng() + rng()) / 2) * 21);
  return intBetween(rng, 19, 68);
}

/** Generates `count` sample ads; the same options always give the same ads. */
export function generateAds(options: AdGenerationOptions): GeneratedAd[] {
  return [...adStream(options)];
}

/**
 * The ads of generateAds(), one at a time: a million of them need not be in memory together. The
 * first n ads of a stream are the ads of a stream of n with the same options.
 */
export function* adStream(options: AdGenerationOptions): Generator<GeneratedAd> {
  const { count, cities, firstId, featuredShare, sample } = options;
  if (!Number.isInteger(count) || count < 0)
    throw new Error('generateAds: count must be a non-negative integer');
  if (!Number.isInteger(firstId)) throw new Error('generateAds: firstId must be an integer');
  if (!(featuredShare >= 0 && featuredShare <= 1))
    throw new Error('generateAds: featuredShare must be within 0..1');
  const fromDay = parseDay(options.postedFrom, 'postedFrom');
  const toDay = parseDay(options.postedTo, 'postedTo');
  if (toDay < fromDay) throw new Error('generateAds: postedTo is before postedFrom');
  if (count === 0) return;
  if (cities.length === 0) throw new Error('generateAds: cities is empty');

  // Cumulative weights for a binary search per ad.
  const cumulative = new Float64Array(cities.length);
  let total = 0;
  cities.forEach((c, i) => {
    if (!(c.weight >= 0) || !Number.isFinite(c.weight))
      throw new Error(`generateAds: bad weight for ${c.city}, ${c.state}`);
    total += c.weight;
    cumulative[i] = total;
  });
  if (!(total > 0)) throw new Error('generateAds: city weights sum to zero');

  const avoidTerms = options.policyTerms;
  const citySafe = new Map<string, boolean>();
  const rng = mulberry32(scrambleSeed(options.seed));
  const spanDays = toDay - fromDay + 1;
  // Every date an ad can carry, formatted once.
  const dayText: string[] = [];
  for (let d = 0; d < spanDays + 365; d++) dayText.push(formatDay(fromDay + d));
  for (let n = 0; n < count; n++) {
    const r = rng() * total;
    let lo = 0;
    let hi = cities.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] as number) > r) hi = mid;
      else lo = mid + 1;
    }
    const place = cities[lo] as { state: string; city: string };

    let safe = citySafe.get(place.city);
    if (safe === undefined) {
      safe = findFirstPolicyTerm(place.city, avoidTerms) === undefined;
      citySafe.set(place.city, safe);
    }

    const age = sampleAge(rng);
    const seeks = weighted(rng, SEEKS_WEIGHTS);
    const { title, description } = composeText(rng, seeks, age, place.city, safe);
    const posted = fromDay + Math.floor(rng() * spanDays);
    const expires = posted + intBetween(rng, 180, 365);

    yield {
      id: firstId + n,
      state: place.state,
      city: place.city,
      age,
      seeks,
      title,
      description,
      images: '',
      featured: rng() < featuredShare,
      postedAt: dayText[posted - fromDay] as string,
      expiresAt: dayText[expires - fromDay] as string,
      sample,
    };
  }
}
