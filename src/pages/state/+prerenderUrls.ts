// The pages this folder prerenders (src/pages/prerender-groups.ts): one page a state.
import { getStates } from '../../../core/content/index.ts';
import { stateGroup, type PrerenderUrls } from '../prerender-groups.ts';

export const prerenderUrls: PrerenderUrls = () =>
  getStates().map((state) => stateGroup(state.name, () => [{ stateName: state.name }]));
