// The pages step's Node flags follow the size of the site the content step compiled
// (pipeline/hand-over.ts forSiteOf, chosen in continueBuild): a site under the step's threshold of
// live ads gets the flags of a smaller site; at or over it, or when the count is not known, the
// flags the build planned (the million-ad budget's).
import { describe, expect, it } from 'vitest';
import { forSiteOf, type StepCommand } from '../../../pipeline/hand-over.ts';

const script = ['/out/server/prerender-pages.mjs', '--out', '/out'];
const step: StepCommand = {
  title: 'Prerendering pages',
  step: 'prerender-pages',
  args: ['--max-old-space-size=112', '--memory-saver-mode', ...script],
  script,
  env: {},
  cwd: '/',
  smallerSite: { belowAds: 130_000, flags: ['--max-old-space-size=96'] },
};

describe('forSiteOf', () => {
  it('gives a site under the threshold the smaller flags, then the same script', () => {
    expect(forSiteOf(step, { activeAds: 100_000 }).args).toEqual([
      '--max-old-space-size=96',
      ...script,
    ]);
    expect(forSiteOf(step, { activeAds: 0 }).args).toEqual(['--max-old-space-size=96', ...script]);
  });

  it('keeps the planned flags at or over it, when the count is unknown, or with no smaller flags', () => {
    expect(forSiteOf(step, { activeAds: 130_000 })).toBe(step);
    expect(forSiteOf(step, { activeAds: 1_000_000 })).toBe(step);
    expect(forSiteOf(step)).toBe(step);
    const { smallerSite: _none, ...plain } = step;
    expect(forSiteOf(plain, { activeAds: 10 })).toBe(plain);
  });
});
