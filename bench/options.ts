// Command-line options of `npm run bench`: --seed N, --date YYYY-MM-DD, --keep, and for a run at
// another scale or shape --ads N and --layout per-state|single-file|many-files.

/** How the generated ads are split into files: one a state, one in all, or about 5,000 small ones. */
export const LAYOUTS = ['per-state', 'single-file', 'many-files'] as const;
export type AdsLayout = (typeof LAYOUTS)[number];

export interface BenchOptions {
  /** Seed of the sample-ad generator: the same seed always gives the same content. */
  seed: number;
  /** The build date: every generated ad is live on it. */
  buildDate: string;
  /** Keep the temporary folders (content, output, cache) for a look afterwards. */
  keep: boolean;
  /** Generated ads in the full set (100,000 by default). */
  ads: number;
  layout: AdsLayout;
  /**
   * Whether --ads or --layout was given: then only the full set is built (and rebuilt after the
   * edits); otherwise also the 20,000-page set and the shipped content.
   */
  scale: boolean;
}

export const DEFAULT_SEED = 20261122;
export const DEFAULT_BUILD_DATE = '2026-11-22';

export const DEFAULT_ADS = 100_000;

const USAGE =
  'usage: npm run bench -- [--seed N] [--date YYYY-MM-DD] [--keep] [--ads N] ' +
  `[--layout ${LAYOUTS.join('|')}]`;

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = {
    seed: DEFAULT_SEED,
    buildDate: DEFAULT_BUILD_DATE,
    keep: false,
    ads: DEFAULT_ADS,
    layout: 'per-state',
    scale: false,
  };
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index];
    if (flag === '--keep') options.keep = true;
    else if (flag === '--seed') options.seed = parseSeed(argv[++index]);
    else if (flag === '--date') options.buildDate = parseDate(argv[++index]);
    else if (flag === '--ads') {
      options.ads = parseAds(argv[++index]);
      options.scale = true;
    } else if (flag === '--layout') {
      options.layout = parseLayout(argv[++index]);
      options.scale = true;
    } else throw new Error(`unknown option ${flag}\n${USAGE}`);
  }
  return options;
}

function parseAds(value: string | undefined): number {
  const ads = Number(value?.replace(/[_,]/g, ''));
  if (value === undefined || !Number.isSafeInteger(ads) || ads < 1) {
    throw new Error(`--ads needs a whole number of ads, 1 or more (got ${value})\n${USAGE}`);
  }
  return ads;
}

function parseLayout(value: string | undefined): AdsLayout {
  const layout = LAYOUTS.find((name) => name === value);
  if (!layout)
    throw new Error(`--layout needs one of ${LAYOUTS.join(', ')} (got ${value})\n${USAGE}`);
  return layout;
}

function parseSeed(value: string | undefined): number {
  const seed = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isSafeInteger(seed)) {
    throw new Error(`--seed needs a whole number (got ${value})\n${USAGE}`);
  }
  return seed;
}

function parseDate(value: string | undefined): string {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value ?? '') ? Date.parse(`${value}T00:00:00Z`) : NaN;
  if (value === undefined || Number.isNaN(ms) || !new Date(ms).toISOString().startsWith(value)) {
    throw new Error(`--date needs a real date written YYYY-MM-DD (got ${value})\n${USAGE}`);
  }
  return value;
}
