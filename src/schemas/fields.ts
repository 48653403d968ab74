// Field types shared by the content schemas. CSV cells arrive as strings, so these parse text.
import { z } from 'zod';

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

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isRealIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}

/** One-line text: trimmed, no line breaks, within the given length. */
export const singleLine = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min, { error: min === 1 ? 'must not be empty' : `must be at least ${min} characters` })
    .max(max, { error: (issue) => `must be at most ${max} characters (got ${String((issue.input as string).length)})` })
    .refine((text) => !/[\r\n]/.test(text), { error: 'must be on one line' });
