// Command-line options of `npm run bench`: --seed N, --date YYYY-MM-DD, --keep.

export interface BenchOptions {
  /** Seed of the sample-ad generator: the same seed always gives the same content. */
  seed: number;
  /** The build date: every generated ad is live on it. */
  buildDate: string;
  /** Keep the temporary folders (content, output, cache) for a look afterwards. */
  keep: boolean;
}

export const DEFAULT_SEED = 20261122;
export const DEFAULT_BUILD_DATE = '2026-11-22';

const USAGE = 'usage: npm run bench -- [--seed N] [--date YYYY-MM-DD] [--keep]';

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = { seed: DEFAULT_SEED, buildDate: DEFAULT_BUILD_DATE, keep: false };
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index];
    if (flag === '--keep') options.keep = true;
    else if (flag === '--seed') options.seed = parseSeed(argv[++index]);
    else if (flag === '--date') options.buildDate = parseDate(argv[++index]);
    else throw new Error(`unknown option ${flag}\n${USAGE}`);
  }
  return options;
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
