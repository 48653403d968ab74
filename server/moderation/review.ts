// What waits for a moderator's review (docs/product.md section 6): a new ad in review, or the
// pending edit of a live ad; and the policy scanner's marks the queue highlights.
import type { PolicyMark } from '../../core/views/moderation.ts';
import { SCAM_FAMILIES } from '../../core/policy/scam-signals.ts';
import type { MemberAdRow } from '../../store/parts/member-ads.ts';

type Pending = Pick<
  MemberAdRow,
  'pendingTitle' | 'pendingDescription' | 'pendingAge' | 'pendingSeeks' | 'pendingPhotos'
>;

export const hasPendingEdit = (ad: Pending) =>
  ad.pendingTitle !== null ||
  ad.pendingDescription !== null ||
  ad.pendingAge !== null ||
  ad.pendingSeeks !== null ||
  ad.pendingPhotos !== null;

export const isAwaitingReview = (ad: Pending & Pick<MemberAdRow, 'status'>) =>
  ad.status === 'review' || (ad.status === 'live' && hasPendingEdit(ad));

/** The scanner's marks as stored (JSON); anything malformed is left out rather than shown wrong. */
export function parseMarks(json: string | null): PolicyMark[] {
  if (!json) return [];
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value.filter(
    (mark): mark is PolicyMark =>
      typeof mark === 'object' &&
      mark !== null &&
      (mark.field === 'title' || mark.field === 'description') &&
      typeof mark.term === 'string' &&
      (mark.family === undefined || SCAM_FAMILIES.includes(mark.family)) &&
      Number.isInteger(mark.start) &&
      Number.isInteger(mark.end) &&
      mark.start >= 0 &&
      mark.end > mark.start,
  );
}
