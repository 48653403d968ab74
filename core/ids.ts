// A row's id as it comes in from outside (a URL's path or query, a form's field): digits only,
// at most 15 of them (a safe integer), or nothing. The one parser: ads, photos, accounts,
// conversations, reports and saved searches are all numbered so.
import type { Refusal } from './refusal.ts';

export const ID_DIGITS = /^\d{1,15}$/;

/** The id a text names, or undefined for anything else (empty, signed, spaced, too long). */
export const idOf = (text: unknown): number | undefined =>
  typeof text === 'string' && ID_DIGITS.test(text) ? Number(text) : undefined;

/** A row's id as a request named it: the number, and the text its refusals repeat (`raw`). */
export interface NamedId {
  id: number;
  raw: string;
}

/**
 * The id `raw` names; anything else is refused as `unknown` refuses an id that names nothing
 * (a malformed id and an id of nothing are never told apart).
 */
export function namedId(
  raw: string | undefined,
  unknown: (raw: string | undefined) => Refusal,
): NamedId {
  const id = idOf(raw);
  if (id === undefined) throw unknown(raw);
  return { id, raw: raw ?? '' };
}
