// A published ad found by its id alone (`/messages/new?ad=…` names no city). The compiled content
// is organised by city, so the first lookup reads every city's ids once and keeps where each id
// is; a new compiled content (a publish) starts again.
import type { AdCounts } from '../schemas/compiled-content.ts';
import { adIdsForCity, getAd, getAdCounts, type CompiledAd } from './index.ts';

let placed: { counts: AdCounts; places: [string, string][]; placeOfId: Map<number, number> };

export function findPublishedAd(id: number): CompiledAd | undefined {
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const counts = getAdCounts();
  if (placed?.counts !== counts) {
    const places: [string, string][] = [];
    const placeOfId = new Map<number, number>();
    for (const [state, cities] of Object.entries(counts))
      for (const city of Object.keys(cities)) {
        places.push([state, city]);
        for (const adId of adIdsForCity(state, city)) placeOfId.set(adId, places.length - 1);
      }
    placed = { counts, places, placeOfId };
  }
  const place = placed.places[placed.placeOfId.get(id) ?? -1];
  return place && getAd(place[0], place[1], id);
}
