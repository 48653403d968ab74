// The "Who may reach me" form of the account page (docs/product.md section 7): the ages a member
// writing first may have, the member's hidden words, and whether only verified members may write
// first. One schema for the form post, JSON and the tests. Each bound may be left empty (no
// bound); the words are one a line or separated by commas, kept in the member's order, lower-cased,
// once each. The form saves all of them at once: a box left unticked (absent) is off.
import { z } from 'zod';

/** The youngest and oldest ages a member may have (docs/product.md section 1: 18 and over). */
export const REACH_AGE_MIN = 18;
export const REACH_AGE_MAX = 99;
/** Hidden words a member may keep, and the length of each. */
export const HIDDEN_WORDS_MAX = 50;
export const HIDDEN_WORD_LENGTH = { min: 2, max: 40 } as const;

const ageBound = (which: 'youngest' | 'oldest') =>
  z
    .union([z.string(), z.number()], { error: `The ${which} age must be a number.` })
    .optional()
    .transform((value) => (value === undefined ? '' : String(value).trim()))
    .refine((value) => value === '' || /^\d{1,3}$/.test(value), {
      error: `The ${which} age must be a whole number from ${REACH_AGE_MIN} to ${REACH_AGE_MAX}, or empty.`,
    })
    .transform((value) => (value === '' ? null : Number(value)))
    .refine((age) => age === null || (age >= REACH_AGE_MIN && age <= REACH_AGE_MAX), {
      error: `The ${which} age must be from ${REACH_AGE_MIN} to ${REACH_AGE_MAX}, or empty.`,
    });

/** The member's words as typed: one a line or separated by commas. */
export function hiddenWordsOf(typed: string): string[] {
  const words = typed
    .split(/[\n,]/)
    .map((word) => word.trim().replace(/\s+/g, ' ').toLowerCase())
    .filter((word) => word !== '');
  return [...new Set(words)];
}

/**
 * A checkbox as sent: "on" (or "true", "1") is ticked; absent or anything else is not. JSON may
 * send a boolean.
 */
export const isTicked = (value: unknown): boolean =>
  value === true || ['on', 'true', '1'].includes(String(value));

const checkbox = z
  .union([z.boolean(), z.string()], { error: 'A checkbox is on or off.' })
  .optional()
  .transform(isTicked);

export const reachSettingsSchema = z
  .object({
    verifiedOnly: checkbox,
    minAge: ageBound('youngest'),
    maxAge: ageBound('oldest'),
    hiddenWords: z
      .string({ error: 'Hidden words must be text.' })
      .max(4_000, { error: 'Hidden words must be at most 4,000 characters in all.' })
      .optional()
      .transform((typed) => hiddenWordsOf(typed ?? ''))
      .check((context) => {
        const words = context.value;
        if (words.length > HIDDEN_WORDS_MAX)
          context.issues.push({
            code: 'custom',
            input: words,
            message: `You can hide up to ${HIDDEN_WORDS_MAX} words (got ${words.length}).`,
          });
        const wrong = words.find(
          (word) =>
            word.length < HIDDEN_WORD_LENGTH.min ||
            word.length > HIDDEN_WORD_LENGTH.max ||
            !/[\p{L}\p{N}]/u.test(word),
        );
        if (wrong !== undefined)
          context.issues.push({
            code: 'custom',
            input: words,
            message: `“${wrong}” can't be a hidden word: each is ${HIDDEN_WORD_LENGTH.min} to ${HIDDEN_WORD_LENGTH.max} characters, with a letter or digit.`,
          });
      }),
  })
  .refine(({ minAge, maxAge }) => minAge === null || maxAge === null || minAge <= maxAge, {
    error: 'The youngest age must not be over the oldest.',
    path: ['maxAge'],
  });

export type ReachSettingsInput = z.infer<typeof reachSettingsSchema>;
