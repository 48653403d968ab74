// What the content index (index.ts) holds of a city's ads, however they are read: its lines read
// at once but parsed only when a page needs them (at a million ads, a city of 30,000 ads is 20 MB
// of JSON and several times that as objects), or a window of lines at a time
// (city-ads-in-windows.ts, the prerenderer's way).
import type { CompiledAd } from '../schemas/compiled-content.ts';

export interface CityAds {
  count: number;
  /** The ad at a position of the list. */
  at(index: number): CompiledAd;
  /** The ads' ids, in list order. */
  ids(): readonly number[];
  /** Position of each id, made when first asked for. */
  positions?: Map<number, number>;
}
