// What Download my data says of the member's verifications (docs/product.md sections 6 and 8):
// everything the site keeps of each, in words: when, the code and pose asked, the level and the
// photos it covers, the code's hash and the selfie's perceptual hash (kept to refuse its reuse),
// whether the selfie itself is still kept and until when it goes. Which moderator decided is kept
// for the site's own review and, as for every decision, not named in the file.
import {
  isPoseKey,
  isVerificationRefusal,
  LEVEL_NAMES,
  POSES,
  VERIFICATION_REFUSALS,
} from '../../core/schemas/verification.ts';
import type { VerificationRow } from '../../store/parts/verifications.ts';

export function verificationEntries(rows: readonly VerificationRow[]) {
  return rows.map((row) => ({
    askedAt: row.createdAt,
    status: row.status,
    pose: isPoseKey(row.pose) ? POSES[row.pose] : row.pose,
    codeHash: row.codeHash,
    selfieSentAt: row.submittedAt,
    selfiePerceptualHash: row.selfiePhash,
    selfieKept: row.selfieKey !== null,
    selfieDeletedAt: row.selfieDeletedAt,
    decidedAt: row.decidedAt,
    decidedBy: row.decidedBy === null ? null : 'a moderator',
    level: row.level === null ? null : LEVEL_NAMES[row.level],
    photoIds: row.photoIds,
    refusalReason:
      row.refusalReason !== null && isVerificationRefusal(row.refusalReason)
        ? VERIFICATION_REFUSALS[row.refusalReason]
        : row.refusalReason,
    withdrawnAt: row.withdrawnAt,
  }));
}
