import { render } from 'vike/abort';
import { adCount, getSite, getState } from '../../../core/content/index.ts';
import { statePath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import { NOT_FOUND } from '../_error/not-found.ts';

export function stateData(stateName: string) {
  const state = getState(stateName);
  if (!state) throw render(404, NOT_FOUND.state.heading);
  const { brand } = getSite();
  return {
    ...pageShell({
      title: state.seoTitle ?? `Personals in ${state.name} - Local Classified Ads - ${brand}`,
      description:
        state.seoDescription ??
        `Browse free personal ads in ${state.cities.length.toLocaleString('en-US')} cities across ${state.name}. Adults 18+ only; every ad is reviewed before it goes live.`,
      path: statePath(state.name),
      robots: state.robots,
      place: state.name,
      state,
    }),
    brand,
    state: { name: state.name, guideHtml: state.guideHtml },
    ageAssurance:
      state.ageAssurance === 'required'
        ? { law: state.ageAssuranceLaw ?? '', reason: state.ageAssuranceReason ?? '' }
        : undefined,
    cities: state.cities.map((city) => ({ name: city.name, ads: adCount(state.name, city.name) })),
  };
}
