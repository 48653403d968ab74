// A row's id as a moderator's request named it (an ad, an account, a photo): the number, and the
// text its refusals repeat ("There is no member ad 007."), cut short. Apart from the modules that
// refuse with it, which all use it.
import { idOf } from '../../core/ids.ts';
import type { Refusal } from '../../core/refusal.ts';

/** An id as a refusal may repeat it: what was typed, cut short. */
export const shownId = (raw: string | undefined) => (raw ?? '').slice(0, 40);

/** A row's id as the request named it: the number, and the text its refusals repeat (`raw`). */
export interface NamedId {
  id: number;
  raw: string;
}

/** The id `raw` names; anything else is refused as `unknown` refuses an id that names nothing. */
export function namedId(
  raw: string | undefined,
  unknown: (raw: string | undefined) => Refusal,
): NamedId {
  const id = idOf(raw);
  if (id === undefined) throw unknown(raw);
  return { id, raw: raw ?? '' };
}
