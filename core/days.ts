// Day arithmetic, the one module of it: days are `YYYY-MM-DD` in UTC (as the database, the build
// date and the ads' expiry hold them), times ISO 8601 strings. Plain text comparison orders both.

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of `now`, YYYY-MM-DD. */
export const utcDay = (now: Date = new Date()) => now.toISOString().slice(0, 10);

/** `day` (YYYY-MM-DD) plus, or with a negative `days` minus, whole days. */
export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Whole days from `earlier` to `later` (times or instants), rounded down. */
export const wholeDaysBetween = (earlier: Date | string, later: Date | string) =>
  Math.floor((new Date(later).getTime() - new Date(earlier).getTime()) / DAY_MS);
