// The pages this folder prerenders (src/pages/prerender-groups.ts): /terms and /privacy.
import { siteGroup, type PrerenderUrls } from '../prerender-groups.ts';

export const prerenderUrls: PrerenderUrls = () => [
  siteGroup(() => [{ slug: 'terms' }, { slug: 'privacy' }], 2),
];
