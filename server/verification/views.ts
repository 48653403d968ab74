// What the verification pages show (docs/product.md section 6, "Verified members"): the member's
// own page (/account/verification) and the moderators' queue of selfies (/moderate/verifications),
// each read from the store in the page's own view type.
import {
  blurredPhotoApiPath,
  decisionPagePath,
  photoSizeApiPath,
  selfieApiPath,
} from '../../core/paths.ts';
import type { ModerateVerificationsView } from '../../core/views/moderate-verifications.ts';
import type { VerificationView } from '../../core/views/verification.ts';
import {
  isPoseKey,
  isVerificationRefusal,
  POSES,
  UPLOADS_PER_CHALLENGE,
  VERIFICATION_REFUSALS,
} from '../../core/schemas/verification.ts';
import type { Store } from '../../store/store.ts';
import { photoShieldOf } from '../moderation/photo-shield.ts';
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

/** Who reads the queue: the moderator (their photo shield), at the app's explicit threshold. */
export interface VerificationQueueAsked {
  now: Date;
  moderatorId: number;
  explicitThreshold: number;
}

/**
 * The moderators' queue: selfies waiting, oldest first, each beside the member's ad photos. The
 * photos are behind the moderator's shield as in the ads' queue (server/moderation/photo-shield.ts):
 * one likely explicit, or every one by their setting, is blurred until they show it.
 */
export async function verificationQueueView(
  store: Store,
  { now, moderatorId, explicitThreshold }: VerificationQueueAsked,
): Promise<ModerateVerificationsView> {
  const rows = await store.verifications.inReview(QUEUE_LENGTH);
  const compared = [];
  for (const row of rows) compared.push(await photosToCompare(store, row.accountId, now));
  const shield = await photoShieldOf(
    store,
    moderatorId,
    explicitThreshold,
    compared.flat().map(({ photo }) => photo),
  );
  const items = [];
  for (const [at, row] of rows.entries()) {
    const account = await store.moderation.account(row.accountId);
    const photos = compared[at]!;
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
        const seen = shield.of(photo);
        return {
          ...seen,
          id: photo.id,
          position: index + 1,
          // Blurred: the page holds the blurred rendering only (the reveal answers the sizes).
          src: seen.blurred
            ? blurredPhotoApiPath(photo.id)
            : photoSizeApiPath(photo.id, shown?.width ?? photo.width),
          srcSet: seen.blurred
            ? ''
            : photo.variants
                .map((variant) => `${photoSizeApiPath(photo.id, variant.width)} ${variant.width}w`)
                .join(', '),
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
