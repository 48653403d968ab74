// Verified members (docs/product.md section 6, "Verified members"): the challenge a member is set
// (a code and a pose), the moderator's checklist and fixed reasons for a refusal, and the levels a
// verification gives. Shared by the server, which sets and decides them, and the pages, which show
// them. No face recognition and no biometric template (section 2): a person compares pictures.

/**
 * The code's letters and digits: none that handwriting confuses (no 0/O/Q/D, 1/I/L, 2/Z, 5/S, 8/B,
 * G/6, U/V): 19 characters, 19^5 = 2,476,099 codes.
 */
export const CODE_ALPHABET = 'ACEFHJKMNPRTWXY3479';

/** Characters in a code. */
export const CODE_LENGTH = 5;

/** How long a challenge can be answered. */
export const CHALLENGE_HOURS = 24;

/** Challenges a member may ask for in CHALLENGE_WINDOW_DAYS (each gives a new code and pose). */
export const CHALLENGES_PER_WINDOW = 3;
export const CHALLENGE_WINDOW_DAYS = 7;

/** Selfies a member may send for one challenge (a refused upload counts too). */
export const UPLOADS_PER_CHALLENGE = 3;

/** How long a refused verification's selfie is kept for its appeal (unless an appeal is open). */
export const REFUSED_SELFIE_DAYS = 30;

/**
 * The poses and expressions: every one hands-free (the code can be held, or propped up beside the
 * face), so a member who cannot raise a hand can do any of them.
 */
export const POSES = {
  'eyes-closed-smile': 'Smile with your eyes closed',
  'look-up-left': 'Look up and to your left',
  'tilt-right': 'Tilt your head to your right',
  'tilt-left': 'Tilt your head to your left',
  'raised-eyebrows': 'Raise your eyebrows high',
  'puffed-cheeks': 'Puff out your cheeks',
  'open-mouth': 'Open your mouth as if saying “oh”',
  'turn-left': 'Turn your head a little to your left',
} as const;

export type PoseKey = keyof typeof POSES;

export const isPoseKey = (value: string): value is PoseKey => Object.hasOwn(POSES, value);

/** What the moderator checks before approving: every item must hold. */
export const CHECKLIST = {
  code: 'The code is legible and is the one we gave',
  pose: 'The pose or expression is the one we asked for',
  'one-person': 'One person is in the photo',
  'not-a-screen': 'It is not a photo of a screen or of a printed photo',
} as const;

export type ChecklistKey = keyof typeof CHECKLIST;

/** Why a moderator refuses a verification: a fixed list, each a sentence the member reads. */
export const VERIFICATION_REFUSALS = {
  code: 'The code is missing, cannot be read, or is not the one we gave you.',
  pose: 'The pose or expression is not the one we asked for.',
  'more-than-one': 'More than one person is in the photo.',
  screen: 'It is a photo of a screen or of another photo.',
  'face-unclear': 'Your face cannot be seen clearly enough to compare.',
} as const;

export type VerificationRefusal = keyof typeof VERIFICATION_REFUSALS;

export const isVerificationRefusal = (value: string): value is VerificationRefusal =>
  Object.hasOwn(VERIFICATION_REFUSALS, value);

/** The two levels: the selfie passed (Real person); and on the photos ticked (Photos verified). */
export type VerificationLevel = 'person' | 'photos';

export const LEVEL_NAMES: Record<VerificationLevel, string> = {
  person: 'Real person',
  photos: 'Photos verified',
};

/**
 * A member's verification as an ad shows it: the level, and of the ad's photos how many the
 * moderator saw (a photo added or replaced later is not covered, and the badge says so).
 */
export interface AdVerification {
  /** Photos of the ad the verification covers. */
  covered: number;
  /** Photos of the ad. */
  photos: number;
}

/** The badge's words for an ad of a verified member. */
export function verificationBadge(verification: AdVerification): {
  label: string;
  detail: string;
} {
  const { covered, photos } = verification;
  if (photos > 0 && covered === photos)
    return {
      label: LEVEL_NAMES.photos,
      detail:
        'A moderator compared a selfie taken for us with these photos: the same person, and a real one.',
    };
  if (covered > 0)
    return {
      label: `${LEVEL_NAMES.photos}: ${covered} of ${photos}`,
      detail: `A moderator checked this member with a selfie and compared it with ${covered} of these photos; the others were added or changed later and are not checked.`,
    };
  return {
    label: LEVEL_NAMES.person,
    detail:
      photos > 0
        ? 'A moderator checked this member with a selfie taken for us. These photos were not compared with it (added or changed later, or not chosen).'
        : 'A moderator checked this member with a selfie taken for us.',
  };
}
