// Command-line options of the server benchmarks (bench:publish, bench:search): --ads N, a count of
// their own (--rounds N, --queries N), --no-write (print the figures, leave docs/benchmarks.md
// alone) and --keep (the temporary folders stay for a look). Numbers may be written 1_000_000.

export interface ServerBenchOptions {
  ads: number;
  /** The benchmark's own count (rounds of publishing, queries). */
  count: number;
  write: boolean;
  keep: boolean;
}

export function parseServerBenchOptions(
  argv: readonly string[],
  {
    script,
    countFlag,
    ads,
    count,
  }: { script: string; countFlag: string; ads: number; count: number },
): ServerBenchOptions {
  const usage = `usage: npm run ${script} -- [--ads N] [${countFlag} N] [--no-write] [--keep]`;
  const options: ServerBenchOptions = { ads, count, write: true, keep: false };
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index];
    const number = () => {
      const value = Number(argv[++index]?.replace(/[_,]/g, ''));
      if (!Number.isInteger(value) || value < 1)
        throw new Error(`${flag} needs a whole number\n${usage}`);
      return value;
    };
    if (flag === '--ads') options.ads = number();
    else if (flag === countFlag) options.count = number();
    else if (flag === '--no-write') options.write = false;
    else if (flag === '--keep') options.keep = true;
    else throw new Error(`unknown option ${flag}\n${usage}`);
  }
  return options;
}
