// The pages this folder prerenders (src/pages/prerender-groups.ts): one, site-wide.
import { siteGroup, type PrerenderUrls } from '../prerender-groups.ts';

export const prerenderUrls: PrerenderUrls = () => [siteGroup(() => [{}])];
