// Why a moderator rejects or removes an ad, or bans an account (docs/product.md section 6): a fixed
// list, shown to the member with the moderator's optional note. Apart from the zod schemas
// (moderation.ts) so that the moderation pages can list them without loading zod.

/** The reasons, by the value the forms post; the label is what the member and the log show. */
export const MODERATION_REASONS = {
  commercial: 'Commercial or paid content',
  'under-18': 'Appears to involve someone under 18',
  identity: "Uses someone else's photos or identity",
  contact: 'Contact details in the ad',
  explicit: 'Explicit content',
  // Banning an account or removing its live ad for this tells the members who answered it
  // (server/moderation/fraud-notices.ts).
  scam: 'Scam or fraud',
  spam: 'Spam or duplicate',
  'wrong-place': 'Wrong city or category',
  other: 'Other',
} as const;

export type ModerationReason = keyof typeof MODERATION_REASONS;

/** The moderator's note beside the reason: at most this many characters. */
export const MODERATION_NOTE_MAX = 500;

/** Under "Other" the note says what is wrong. */
export const OTHER_NEEDS_NOTE = 'Say in the note what is wrong when the reason is "Other".';
