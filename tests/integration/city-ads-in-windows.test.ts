// The prerenderer reads a city's ads a window of lines at a time
// (core/content/city-ads-in-windows.ts): every city must give the same ads, ids and counts as when
// its lines are read whole (the server's way), in list order and in any other, with windows smaller
// than one line too.
import { expect, test } from 'vitest';
import { compileToDisk } from '../../pipeline/compile/compile-to-disk.ts';
import {
  adIdsForCity,
  adsForCity,
  cityAdsEntry,
  getAd,
  getStates,
  stateAdsFile,
  useCompiledContentDir,
  type CompiledAd,
} from '../../core/content/index.ts';
import { cityAdsInWindows } from '../../core/content/city-ads-in-windows.ts';
import { contentFixtureForFile } from '../helpers/content-fixture.ts';

const fixture = contentFixtureForFile();

/** Each city with ads: its state, name, and its ads as read whole. */
function citiesReadWhole() {
  useCompiledContentDir(fixture.compiledDir);
  const cities: Array<{ state: string; city: string; ads: CompiledAd[]; ids: readonly number[] }> =
    [];
  for (const state of getStates())
    for (const { name } of state.cities) {
      const ads = adsForCity(state.name, name);
      if (ads.length > 0)
        cities.push({ state: state.name, city: name, ads, ids: adIdsForCity(state.name, name) });
    }
  return cities;
}

test('a city read in windows gives the ads it gives read whole, in list order and backwards', () => {
  const outcome = compileToDisk({
    contentDir: fixture.dir,
    compiledDir: fixture.compiledDir,
    buildDate: '2026-11-22',
  });
  expect(outcome.ok).toBe(true);
  const cities = citiesReadWhole();
  expect(cities.length).toBeGreaterThanOrEqual(4);
  for (const windowBytes of [1, 700, 1 << 20]) {
    for (const { state, city, ads, ids } of cities) {
      const entry = cityAdsEntry(state, city)!;
      const inWindows = cityAdsInWindows(stateAdsFile(state), entry, windowBytes);
      expect(inWindows.count).toBe(ads.length);
      expect(inWindows.ids()).toEqual(ids);
      expect(ads.map((_, index) => inWindows.at(index))).toEqual(ads);
      const backwards = ads.map((_, index) => inWindows.at(ads.length - 1 - index));
      expect(backwards).toEqual([...ads].reverse());
      expect(() => inWindows.at(ads.length)).toThrow(`No ad at position ${ads.length}`);
    }
  }

  // The prerenderer's way through the content index: the same pages, the same ads by id.
  useCompiledContentDir(fixture.compiledDir, { inWindows: true });
  for (const { state, city, ads } of cities) {
    expect(adsForCity(state, city)).toEqual(ads);
    expect(adsForCity(state, city, 1, 2)).toEqual(ads.slice(1, 2));
    for (const ad of ads) expect(getAd(state, city, ad.id)).toEqual(ad);
  }
  useCompiledContentDir(fixture.compiledDir);
});
