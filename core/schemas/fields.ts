// Field types shared by the content schemas. CSV cells arrive as strings, so these parse text.
import { z } from 'zod';
import { isRealIsoDate } from './iso-date.ts';

export { isRealIsoDate };

/** A whole number written in a CSV cell, e.g. `1042`. */
export const csvInteger = (label = 'a whole number') =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { error: (issue) => `must be ${label} (got '${String(issue.input)}')` })
    .transform(Number);

/** `true` or `false` in a CSV cell; an empty cell means false. */
export const csvBoolean = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => ['true', 'false', ''].includes(value), {
    error: (issue) => `must be true or false (got '${String(issue.input)}')`,
  })
  .transform((value) => value === 'true');

/** A calendar date written YYYY-MM-DD that exists (2026-02-30 does not). */
export const isoDate = z
  .string()
  .trim()
  .refine(isRealIsoDate, {
    error: (issue) => `must be a real date written YYYY-MM-DD (got '${String(issue.input)}')`,
  });

/** Front matter dates: YAML may hand us a Date object; we keep YYYY-MM-DD text. */
export const frontMatterDate = z.preprocess(
  (value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value),
  isoDate,
);

/** One-line text: trimmed, no line breaks, within the given length. */
export const singleLine = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min, { error: min === 1 ? 'must not be empty' : `must be at least ${min} characters` })
    .max(max, {
      error: (issue) =>
        `must be at most ${max} characters (got ${String((issue.input as string).length)})`,
    })
    .refine((text) => !/[\r\n]/.test(text), { error: 'must be on one line' });
