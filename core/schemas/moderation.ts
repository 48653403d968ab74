// The moderation actions' input (docs/product.md section 6), for their JSON and form posts: which
// version of the ad the moderator saw (revision), and why (a reason from the fixed list, a note).
import { z } from 'zod';
import {
  MODERATION_NOTE_MAX,
  MODERATION_REASONS,
  OTHER_NEEDS_NOTE,
  type ModerationReason,
} from './moderation-reasons.ts';

const REASONS = Object.keys(MODERATION_REASONS) as [ModerationReason, ...ModerationReason[]];

const unexpectedField = {
  error: (issue: z.core.$ZodRawIssue) =>
    issue.code === 'unrecognized_keys' ? `Unexpected field: ${issue.keys.join(', ')}.` : undefined,
};

/** The ad's revision as the moderator saw it: a whole number, as JSON or as form text. */
const revision = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,15}$/, { error: 'The revision must be a whole number.' }),
    ],
    {
      error: (issue) =>
        issue.input === undefined
          ? 'The revision of the ad you saw is missing. Reload the queue and try again.'
          : 'The revision must be a whole number.',
    },
  )
  .transform(Number)
  .pipe(
    z
      .number()
      .int({ error: 'The revision must be a whole number.' })
      .min(1, { error: 'The revision must be a whole number.' }),
  );

const reason = z.enum(REASONS, {
  error: (issue) =>
    issue.input === undefined || issue.input === ''
      ? 'Choose a reason.'
      : `Unknown reason. Choose one of: ${REASONS.join(', ')}.`,
});

const note = z
  .string({ error: 'The note must be text.' })
  .trim()
  .max(MODERATION_NOTE_MAX, {
    error: (issue) =>
      `The note must be at most ${MODERATION_NOTE_MAX} characters (got ${String((issue.input as string).length)}).`,
  })
  .optional()
  .transform((text) => (text ? text : undefined));

const otherHasNote = (input: { reason: ModerationReason; note?: string | undefined }) =>
  input.reason !== 'other' || input.note !== undefined;
const otherNeedsNote = { path: ['note'], error: OTHER_NEEDS_NOTE };

/** Approve an ad in review, or the pending edit of a live ad. */
export const approveAdSchema = z.strictObject({ revision }, unexpectedField);
/** Reject an ad in review (or a pending edit), or remove a live ad. */
export const rejectAdSchema = z
  .strictObject({ revision, reason, note }, unexpectedField)
  .refine(otherHasNote, otherNeedsNote);
/** Ban an account: every ad of it removed, sign-in refused, the email never signs up again. */
export const banAccountSchema = z
  .strictObject({ reason, note }, unexpectedField)
  .refine(otherHasNote, otherNeedsNote);

export type RejectAdInput = z.infer<typeof rejectAdSchema>;
export type BanAccountInput = z.infer<typeof banAccountSchema>;
