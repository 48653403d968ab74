import { adCount, getCounts, getSite, getStates } from '../../../core/content/index.ts';
import { homePath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';

export function landingData() {
  const site = getSite();
  return {
    ...pageShell({
      title: `${site.brand} - Personal Ads by State and City`,
      description: site.description,
      path: homePath(),
    }),
    site,
    states: getStates().map((state) => ({
      name: state.name,
      code: state.code,
      cities: state.cities.length,
    })),
    popularCities: site.popularCities.map((popular) => ({
      ...popular,
      ads: adCount(popular.state, popular.city),
    })),
    counts: getCounts(),
  };
}
