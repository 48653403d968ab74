// What the verification pages show (docs/product.md section 6, "Verified members"): the member's
// own page (/account/verification) and the moderators' queue of selfies (/moderate/verifications),
// each read from the store in the page's own view type.
import { decisionPagePath, photoSizeApiPath, selfieApiPath } from '../../core/paths.ts';
import type { ModerateVerificationsView } from '../../src/pages/moderate-verifications/verifications-view.ts';
import type { VerificationView } from '../../src/pages/verification/verification-view.ts';
import {
  isPoseKey,
  isVerificationRefusal,
  POSES,
  UPLOADS_PER_CHALLENGE,
  VERIFICATION_REFUSALS,
} from '../../core/schemas/verification.ts';
import type { Store } from '../../store/store.ts';
import { openChallenge } from './challenge.ts';
import { photosToCompare } from './decisions.ts';

/** The queue shows this many selfies at once, oldest first. */
const QUEUE_LENGTH = 20;

const poseWords = (pose: string) => (isPoseKey(pose) ? POSES[pose] : pose);

/** The member's own verification page. */
export async function verificationView(
  store: Store,
  accountId: number,
  now: Date,
): Promise<VerificationView> {
  const challenge = await openChallenge(store, accountId, now);
  const rows = await store.verifications.listForAccount(accountId);
  const current = (await store.verifications.currentFor([accountId])).get(accountId);
  const inReview = rows.find((row) => row.status === 'submitted');
  const lastDecided = rows.find((row) => row.decidedAt !== null && row.status !== 'withdrawn');
  return {
    ...(current
      ? {
          current: {
            level: current.level,
            decidedAt: current.decidedAt,
            photos: current.photoIds.length,
          },
        }
      : {}),
    ...(challenge
      ? {
          challenge: {
            code: challenge.code ?? '',
            pose: poseWords(challenge.pose),
            expiresAt: challenge.expiresAt,
            uploadsLeft: Math.max(0, UPLOADS_PER_CHALLENGE - challenge.uploads),
          },
        }
      : {}),
    ...(inReview
      ? {
          inReview: {
            id: inReview.id,
            submittedAt: inReview.submittedAt ?? inReview.createdAt,
            selfieSrc: selfieApiPath(inReview.id),
            code: inReview.code ?? '',
            pose: poseWords(inReview.pose),
          },
        }
      : {}),
    ...(lastDecided?.status === 'refused' && lastDecided.statementId !== null
      ? {
          refused: {
            decidedAt: lastDecided.decidedAt!,
            reason: isVerificationRefusal(lastDecided.refusalReason ?? '')
              ? VERIFICATION_REFUSALS[
                  lastDecided.refusalReason as keyof typeof VERIFICATION_REFUSALS
                ]
              : (lastDecided.refusalReason ?? ''),
            decisionPath: decisionPagePath(lastDecided.statementId),
          },
        }
      : {}),
    verifiedFirstOnly: await store.verifications.verifiedFirstOnly(accountId),
  };
}

/** The moderators' queue: selfies waiting, oldest first, each beside the member's ad photos. */
export async function verificationQueueView(
  store: Store,
  now: Date,
): Promise<ModerateVerificationsView> {
  const rows = await store.verifications.inReview(QUEUE_LENGTH);
  const items = [];
  for (const row of rows) {
    const account = await store.moderation.account(row.accountId);
    const photos = await photosToCompare(store, row.accountId, now);
    items.push({
      id: row.id,
      submittedAt: row.submittedAt ?? row.createdAt,
      member: { email: account?.email ?? 'deleted account' },
      selfie: {
        src: selfieApiPath(row.id),
        width: row.selfieWidth ?? 0,
        height: row.selfieHeight ?? 0,
      },
      code: row.code ?? '',
      pose: poseWords(row.pose),
      photos: photos.map(({ photo, ad }, index) => {
        const shown =
          photo.variants.find((variant) => variant.width >= 640) ?? photo.variants.at(-1);
        return {
          id: photo.id,
          src: photoSizeApiPath(photo.id, shown?.width ?? photo.width),
          width: shown?.width ?? photo.width,
          height: shown?.height ?? photo.height,
          alt: `Photo ${index + 1} of the member's ad “${ad.title}”`,
          ad: `“${ad.title}”, ${ad.status === 'live' ? 'live' : 'in review'}`,
        };
      }),
    });
  }
  return { items, open: await store.verifications.countInReview() };
}
