// How reports are grouped for the moderators (docs/product.md section 8): an ad's reports, or a
// conversation's about one of its members, decided on at once. A group's key is what the
// moderators' page posts back (`ad:{id}`, `conversation:{id}:{reported account id, 0 for none}`),
// and the lock a rule on the group holds: the ad's (`ad:{id}`, the lock every change of an ad
// holds) or the conversation's (`conversation:{id}`, which its messages hold too).
import type { ReportGroupKey, ReportRow } from '../../store/parts/reports.ts';

export type { ReportGroupKey };

export function parseGroupKey(key: string): ReportGroupKey | undefined {
  const ad = /^ad:(\d{1,15})$/.exec(key);
  if (ad) return { kind: 'ad', adId: Number(ad[1]) };
  const conversation = /^conversation:(\d{1,15}):(\d{1,15})$/.exec(key);
  if (conversation)
    return {
      kind: 'conversation',
      conversationId: Number(conversation[1]),
      reportedAccountId: Number(conversation[2]),
    };
  return undefined;
}

export const groupKeyOf = (
  row: Pick<ReportRow, 'adId' | 'conversationId' | 'reportedAccountId'>,
): string =>
  row.conversationId === null
    ? `ad:${row.adId}`
    : `conversation:${row.conversationId}:${row.reportedAccountId ?? 0}`;

/** The lock of what a group's reports are about. */
export const lockOf = (group: ReportGroupKey): string =>
  group.kind === 'ad' ? `ad:${group.adId}` : `conversation:${group.conversationId}`;
