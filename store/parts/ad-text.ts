// A member ad's text and place: the seven columns every reading of an ad starts from (a reply's
// ad, a report's copy, the published row, the member's data file, the ad's own screen). One type,
// from the table's own (tables.ts), so a column added or renamed there reaches every reader.
import type { Selectable } from 'kysely';
import type { MemberAdsTable } from '../tables.ts';

/** Its columns, as a query selects them (`.select([...AD_TEXT_COLUMNS, …])`). */
export const AD_TEXT_COLUMNS = [
  'id',
  'state',
  'city',
  'age',
  'seeks',
  'title',
  'description',
] as const;

/** A member ad's id, place and text, as stored (seeks as stored). */
export type MemberAdText = Pick<Selectable<MemberAdsTable>, (typeof AD_TEXT_COLUMNS)[number]>;

/** The ad's text and place alone, out of any larger row (its types kept: seeks may be narrower). */
export function adTextOf<Ad extends MemberAdText>(ad: Ad): Pick<Ad, keyof MemberAdText> {
  const { id, state, city, age, seeks, title, description } = ad;
  return { id, state, city, age, seeks, title, description };
}
