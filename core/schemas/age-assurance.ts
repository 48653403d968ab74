// Age assurance's forms and requests (docs/product.md section 6, "Age assurance"): the state a
// member says they live in (sign-up, /account), and the wallet's answer the check page posts.
import { z } from 'zod';
import { US_STATE_NAMES } from './us-states.ts';

export const DECLARED_STATE_INVALID = 'Choose one of the 50 states, or leave it empty.';

/** The member's state: one of the 50 names, or empty (not said: undefined). */
export const declaredStateField = z
  .union([z.literal(''), z.enum(US_STATE_NAMES)], { error: DECLARED_STATE_INVALID })
  .optional()
  .transform((state) => state || undefined);

/** /account's "Your state" form. */
export const declaredStateSchema = z.object({ state: declaredStateField });

/** The request's id the server gave, and the wallet's answer as the browser handed it over. */
export const ageCheckAnswerSchema = z.object({
  /** The id of the request the wallet answered (base64url, 22 characters). */
  requestId: z
    .string({ error: 'The answer names no request: start the check again.' })
    .regex(/^[A-Za-z0-9_-]{16,64}$/, {
      error: 'The answer names no request: start the check again.',
    }),
  /** The EncryptedResponse (ISO 18013-7 Annex C), base64url; at most 64 KB. */
  response: z
    .string({ error: 'The wallet sent no answer: start the check again.' })
    .regex(/^[A-Za-z0-9_-]{1,65536}$/, {
      error: 'The wallet sent no answer: start the check again.',
    }),
});
