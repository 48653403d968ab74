// How long ago, on the moderation pages (times themselves: formatMoment in core/format.ts).

/** "today", "1 day ago", "12 days ago" */
export const daysAgo = (days: number) =>
  days === 0 ? 'today' : days === 1 ? '1 day ago' : `${days} days ago`;
