// The "Messages" form of the account page (docs/product.md section 7): how new requests are mailed
// (once a day in one digest, the default, or each at once) and whether the member shows read
// receipts (off unless ticked). One schema for the form post, JSON and the tests; the form saves
// both at once: a box left unticked (absent) is off.
import { z } from 'zod';
import { isTicked } from './reach-settings.ts';

/** How a member's new requests are mailed. */
export const REQUEST_MAILS = ['daily', 'at-once'] as const;
export type RequestMails = (typeof REQUEST_MAILS)[number];

export const messageSettingsSchema = z.object({
  /** `daily` (the default when absent): one digest a day; `at-once`: each request as it comes. */
  requestMails: z
    .enum(REQUEST_MAILS, {
      error: 'Choose how we mail you about new requests: once a day, or each at once.',
    })
    .optional()
    .transform((value) => value ?? 'daily'),
  /** Read receipts, shown only between two members who both turned them on. */
  readReceipts: z
    .union([z.boolean(), z.string()], { error: 'A checkbox is on or off.' })
    .optional()
    .transform(isTicked),
});

export type MessageSettingsInput = z.infer<typeof messageSettingsSchema>;
