// A report's input (docs/product.md section 8), from the report form or JSON: a reason from the fixed
// list and an optional note. Which ad or conversation it is about is read by the route.
import { z } from 'zod';
import { REPORT_NOTE_MAX, REPORT_REASONS, type ReportReason } from './report-reasons.ts';
import {
  MODERATION_NOTE_MAX,
  MODERATION_REASONS,
  type ModerationReason,
} from './moderation-reasons.ts';

const REASONS = Object.keys(REPORT_REASONS) as [ReportReason, ...ReportReason[]];

export const CHOOSE_A_REASON = 'Choose what is wrong: one of the reasons in the list.';

export const reportSchema = z.object({
  reason: z.enum(REASONS, { error: () => CHOOSE_A_REASON }),
  note: z
    .string({ error: 'The note must be text.' })
    .trim()
    .max(REPORT_NOTE_MAX, {
      error: (issue) =>
        `The note must be at most ${REPORT_NOTE_MAX.toLocaleString('en-US')} characters (got ${String((issue.input as string).length)}).`,
    })
    .optional()
    .transform((text) => text ?? ''),
});

export type ReportInput = z.infer<typeof reportSchema>;

/** What a moderator does with one group of open reports (/moderate/reports). */
export const REPORT_ACTIONS = ['dismiss', 'remove', 'ban'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

const MODERATION_REASON_KEYS = Object.keys(MODERATION_REASONS) as [
  ModerationReason,
  ...ModerationReason[],
];

export const resolveReportsSchema = z
  .object({
    /** `ad:{id}`, or `conversation:{id}:{reported account id}`. */
    group: z
      .string({ error: 'Which reports is missing. Reload the page and try again.' })
      .regex(/^(ad:\d{1,15}|conversation:\d{1,15}:\d{1,15})$/, {
        error: 'Which reports is not understood. Reload the page and try again.',
      }),
    /** The newest report of the group the moderator saw. */
    seen: z
      .union([z.number(), z.string().regex(/^\d{1,15}$/)], {
        error: 'The reports you saw are missing. Reload the page and try again.',
      })
      .transform(Number),
    action: z.enum(REPORT_ACTIONS, { error: 'Choose Dismiss, Remove or Ban.' }),
    reason: z
      .union([z.literal(''), z.enum(MODERATION_REASON_KEYS)], {
        error: `Unknown reason. Choose one of: ${MODERATION_REASON_KEYS.join(', ')}.`,
      })
      .optional()
      .transform((reason) => (reason ? reason : undefined)),
    note: z
      .string({ error: 'The note must be text.' })
      .trim()
      .max(MODERATION_NOTE_MAX, {
        error: `The note must be at most ${MODERATION_NOTE_MAX} characters.`,
      })
      .optional()
      .transform((text) => (text ? text : undefined)),
  })
  .refine((input) => input.action === 'dismiss' || input.reason !== undefined, {
    path: ['reason'],
    error: 'Choose a reason: the member is told why.',
  })
  .refine((input) => input.reason !== 'other' || input.note !== undefined, {
    path: ['note'],
    error: 'Say in the note what is wrong when the reason is "Other".',
  });

export type ResolveReportsInput = z.infer<typeof resolveReportsSchema>;
