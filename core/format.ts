// Number and date formatting for visitors (US English, deterministic across machines).
const numberFormat = new Intl.NumberFormat('en-US');
const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
const momentFormat = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

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

/**
 * A moment stored as an ISO instant (a message sent, a moderation action), shown in UTC so that
 * both members of a conversation, and every moderator, read the same time:
 * 2026-11-22T14:03:09.120Z → "Nov 22, 2026, 14:03 UTC".
 */
export const formatMoment = (iso: string) => `${momentFormat.format(new Date(iso))} UTC`;
