// The pages this folder prerenders (src/pages/prerender-groups.ts): every guide of content/guides/.
import { getGuides } from '../../../core/content/index.ts';
import { siteGroup, type PrerenderUrls } from '../prerender-groups.ts';

export const prerenderUrls: PrerenderUrls = () => [
  siteGroup(() => getGuides().map((guide) => ({ slug: guide.slug })), getGuides().length),
];
