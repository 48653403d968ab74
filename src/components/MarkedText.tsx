import type { PolicyMark } from '../../core/views/moderation.ts';

/**
 * Text with the policy scanner's words highlighted for the moderator: each mark's range in
 * `<mark>`. Ranges outside the text or overlapping an earlier one are left out (the text is shown
 * whole either way).
 */
export function MarkedText({ text, marks }: { text: string; marks: readonly PolicyMark[] }) {
  const parts: Array<string | PolicyMark> = [];
  let at = 0;
  for (const mark of [...marks].sort((a, b) => a.start - b.start)) {
    // A mark of the whole ad (the learned model's) has no range: it is named beside the ad.
    if (mark.start < at || mark.end > text.length || mark.end === mark.start) continue;
    if (mark.start > at) parts.push(text.slice(at, mark.start));
    parts.push(mark);
    at = mark.end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return (
    <>
      {parts.map((part, index) =>
        typeof part === 'string' ? (
          part
        ) : (
          <mark
            key={index}
            className="policy-mark"
            title={`${part.family ? 'Scam signal' : 'Policy term'}: ${part.term}`}
          >
            {text.slice(part.start, part.end)}
          </mark>
        ),
      )}
    </>
  );
}
