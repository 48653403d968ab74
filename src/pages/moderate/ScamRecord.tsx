import { plural } from '../../../core/format.ts';
import type { FamilyCount, ScamRecordView } from '../../../core/views/moderation.ts';

/** "off-site contact 2, money request 1" */
const byFamily = (counts: readonly FamilyCount[]) =>
  counts.map(({ name, count }) => `${name} ${count}`).join(', ');

const total = (counts: readonly FamilyCount[]) => counts.reduce((sum, { count }) => sum + count, 0);

/**
 * An account's scam record as moderators read it: "Scam signals: 3 messages refused (off-site
 * contact 2, money request 1), 1 warned (money request 1)", or "Scam signals: none".
 */
export function scamRecordText({ refused, warned }: ScamRecordView): string {
  const parts = [
    ...(refused.length > 0
      ? [`${plural(total(refused), 'message')} refused (${byFamily(refused)})`]
      : []),
    ...(warned.length > 0 ? [`${total(warned)} warned (${byFamily(warned)})`] : []),
  ];
  return `Scam signals: ${parts.length === 0 ? 'none' : parts.join(', ')}`;
}

/** The record beside an account (the queue's poster, the reported member, a flagged account). */
export function ScamRecord({ record }: { record: ScamRecordView }) {
  const flagged = record.refused.length > 0 || record.warned.length > 0;
  return (
    <p className={`scam-record${flagged ? ' scam-record--flagged' : ''}`}>
      {scamRecordText(record)}
    </p>
  );
}
