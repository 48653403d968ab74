// What the server reads for /account/verification (server/verification/views.ts): the member's
// verification as it stands, the challenge to answer, the selfie waiting for a moderator, the last
// refusal, and the first-message setting. Types only, in the kernel: the server builds it, the
// page shows it.
import type { VerificationLevel } from '../schemas/verification.ts';

export interface VerificationView {
  /** The member's current verification, if any. */
  current?: {
    level: VerificationLevel;
    decidedAt: string;
    /** How many of the member's photos it covers. */
    photos: number;
  };
  /** The open challenge: the code to write, the pose, until when. */
  challenge?: { code: string; pose: string; expiresAt: string; uploadsLeft: number };
  /** A selfie waiting for a moderator. */
  inReview?: { id: number; submittedAt: string; selfieSrc: string; code: string; pose: string };
  /** The newest decision if it was a refusal: why, and its statement's page. */
  refused?: { decidedAt: string; reason: string; decisionPath: string };
  /** Only verified members may start a conversation with the member. */
  verifiedFirstOnly: boolean;
}
