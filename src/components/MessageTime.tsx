// When a message was sent: shown in UTC, as every time on the site, in a <time> element.
const momentFormat = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** 2026-11-22T14:03:09.120Z → "Nov 22, 2026, 14:03 UTC" */
export const formatSentAt = (iso: string) => `${momentFormat.format(new Date(iso))} UTC`;

export function MessageTime({ at, className }: { at: string; className?: string }) {
  return (
    <time className={className} dateTime={at}>
      {formatSentAt(at)}
    </time>
  );
}
