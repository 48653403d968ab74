// When a message was sent, in a <time> element (UTC, as every time on the site).
import { formatMoment } from '../../core/format.ts';

export function MessageTime({ at, className }: { at: string; className?: string }) {
  return (
    <time className={className} dateTime={at}>
      {formatMoment(at)}
    </time>
  );
}
