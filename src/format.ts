// Number and date formatting for visitors (US English, deterministic across machines).
const numberFormat = new Intl.NumberFormat('en-US');
const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

export const formatNumber = (value: number) => numberFormat.format(value);

const formattedDates = new Map<string, string>();

/** 2026-11-03 → November 3, 2026 (remembered: a build formats the same few hundred days over and over). */
export function formatDate(isoDate: string): string {
  let text = formattedDates.get(isoDate);
  if (text === undefined) {
    text = dateFormat.format(new Date(`${isoDate}T00:00:00Z`));
    formattedDates.set(isoDate, text);
  }
  return text;
}

/** "1 ad", "2 ads" */
export const plural = (count: number, one: string, many = `${one}s`) =>
  `${formatNumber(count)} ${count === 1 ? one : many}`;
