// Times on the moderation pages: stored as ISO instants, shown in UTC so that every moderator reads
// the same time.
const momentFormat = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** 2026-11-22T14:03:09.120Z → "Nov 22, 2026, 14:03 UTC" */
export const formatMoment = (iso: string) => `${momentFormat.format(new Date(iso))} UTC`;

/** "today", "1 day ago", "12 days ago" */
export const daysAgo = (days: number) =>
  days === 0 ? 'today' : days === 1 ? '1 day ago' : `${days} days ago`;
