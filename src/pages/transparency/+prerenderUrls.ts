// The pages this folder prerenders (src/pages/prerender-groups.ts): the one report, site-wide, and
// beside it the same numbers as a CSV file (core/transparency/transparency-csv.ts).
import { transparencyCsvPath } from '../../../core/paths.ts';
import { transparencyCsv } from '../../../core/transparency/transparency-csv.ts';
import { siteGroup, type PrerenderUrls } from '../prerender-groups.ts';

export const prerenderUrls: PrerenderUrls = () => [
  {
    ...siteGroup(() => [{}]),
    *files() {
      yield { path: transparencyCsvPath(), text: () => transparencyCsv() };
    },
  },
];
