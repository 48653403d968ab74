// An appeal and its decision (docs/product.md section 6), for their JSON and form posts:
// the member's text (up to APPEAL_TEXT_MAX characters) about one decision (its statement's id, and
// the key of the mail's link, in the query, for a member who cannot sign in), and the moderator's outcome, with
// the reason the member reads when the decision is upheld.
import { z } from 'zod';

export const APPEAL_TEXT_MAX = 2000;
export const APPEAL_REPLY_MAX = 1000;

export const appealSchema = z.object({
  /** Why the member thinks the decision is wrong: 1–2,000 characters. */
  text: z
    .string({ error: 'Say why you think the decision is wrong.' })
    .trim()
    .min(1, { error: 'Say why you think the decision is wrong.' })
    .max(APPEAL_TEXT_MAX, {
      error: (issue) =>
        `Your appeal must be at most ${APPEAL_TEXT_MAX} characters (got ${String((issue.input as string).length)}).`,
    }),
});

export type AppealInput = z.infer<typeof appealSchema>;

export const decideAppealSchema = z
  .object({
    /** Upheld: the decision stands; reversed: it is undone at once. */
    outcome: z.enum(['upheld', 'reversed'], { error: 'Choose whether to uphold or reverse it.' }),
    /** Why it is upheld, shown to the member (required then, 1,000 characters). */
    reply: z
      .string()
      .trim()
      .max(APPEAL_REPLY_MAX, {
        error: `The reason must be at most ${APPEAL_REPLY_MAX} characters.`,
      })
      .optional()
      .transform((text) => text ?? ''),
  })
  .refine((input) => input.outcome === 'reversed' || input.reply.length > 0, {
    error: 'Say why the decision stands: the member reads it.',
    path: ['reply'],
  });

export type DecideAppealInput = z.infer<typeof decideAppealSchema>;
