// The build date decides which ads are live. Today (UTC) unless `--date YYYY-MM-DD` or BUILD_DATE says otherwise.
import { isRealIsoDate } from '../core/schemas/iso-date.ts';

export function buildDateFrom(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  today = new Date(),
): string {
  const flag = argv.indexOf('--date');
  const given = flag !== -1 ? argv[flag + 1] : env.BUILD_DATE;
  if (given === undefined || given === '') return today.toISOString().slice(0, 10);
  if (!isRealIsoDate(given))
    throw new Error(`Build date must be a real date written YYYY-MM-DD (got '${given}')`);
  return given;
}
