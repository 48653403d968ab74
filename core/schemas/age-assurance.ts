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

/** The Digital Credentials API protocols a check offers the wallet, in the order offered. */
export const AGE_CHECK_PROTOCOLS = ['org-iso-mdoc', 'openid4vp-v1-unsigned'] as const;
/** ISO 18013-7 Annex C: a DeviceRequest, an HPKE-encrypted DeviceResponse. */
export const MDOC_PROTOCOL = AGE_CHECK_PROTOCOLS[0];
/** OpenID4VP 1.0 over the DC API, unsigned request: a DCQL query, a JWE-encrypted vp_token. */
export const OPENID4VP_PROTOCOL = AGE_CHECK_PROTOCOLS[1];
export type AgeCheckProtocol = (typeof AGE_CHECK_PROTOCOLS)[number];

const NO_ANSWER = 'The wallet sent no answer: start the check again.';

/** The request's id the server gave, and the wallet's answer as the browser handed it over. */
export const ageCheckAnswerSchema = z.object({
  /** The id of the request the wallet answered (base64url, 22 characters). */
  requestId: z
    .string({ error: 'The answer names no request: start the check again.' })
    .regex(/^[A-Za-z0-9_-]{16,64}$/, {
      error: 'The answer names no request: start the check again.',
    }),
  /** Which protocol the wallet answered in (DigitalCredential.protocol); default org-iso-mdoc. */
  protocol: z
    .enum(AGE_CHECK_PROTOCOLS, { error: 'The wallet answered in a way we did not ask for.' })
    .default(MDOC_PROTOCOL),
  /**
   * The wallet's answer, at most 64 KB: org-iso-mdoc's EncryptedResponse (base64url), or
   * OpenID4VP's `response`, a JWE in compact form (base64url parts joined by dots).
   */
  response: z.string({ error: NO_ANSWER }).regex(/^[A-Za-z0-9_.-]{1,65536}$/, { error: NO_ANSWER }),
});
