// A row's id as a moderator's request named it (an ad, an account, a photo): the text its refusals
// repeat ("There is no member ad 007."), cut short. The id itself is read by core/ids.ts
// (`namedId`), from a path by server/http/route-id.ts.
export type { NamedId } from '../../core/ids.ts';

/** An id as a refusal may repeat it: what was typed, cut short. */
export const shownId = (raw: string | undefined) => (raw ?? '').slice(0, 40);
