// What the server reads for /moderate/verifications (server/verification/views.ts): the selfies
// waiting for a moderator, oldest first, each beside the member's ad photos, with the code and
// pose expected. Types only, in the kernel: the server builds it, the page shows it.

export interface ReviewPhoto {
  id: number;
  /** 1-based, among the member's photos shown. */
  position: number;
  /** The size shown; when blurred, the blurred rendering (the reveal answers the sizes). */
  src: string;
  /** Every size (`/api/photos/{id}/{width} {width}w`); empty when blurred. */
  srcSet: string;
  width: number;
  height: number;
  alt: string;
  /** The ad it is on, in words ("“Title”, live"). */
  ad: string;
  /** Behind the moderator's shield, as in the ads' queue (moderation.ts QueuePhoto). */
  blurred: boolean;
  likelyExplicit: boolean;
  scoreLabel: string | null;
}

export interface VerificationReviewItem {
  id: number;
  submittedAt: string;
  /** The member, as the queue shows a poster. */
  member: { email: string };
  selfie: { src: string; width: number; height: number };
  code: string;
  pose: string;
  photos: ReviewPhoto[];
}

export interface ModerateVerificationsView {
  items: VerificationReviewItem[];
  /** How many wait in all. */
  open: number;
}
