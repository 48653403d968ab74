// Writes a benchmark content folder: a copy of content/ without its ads, plus the given ads as
// one CSV a state, ads/{State Name}.csv, in the columns of content/ads/*.csv.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { GeneratedAd } from './generate-ads.ts';

const AD_COLUMNS = [
  'id',
  'state',
  'city',
  'age',
  'seeks',
  'title',
  'description',
  'images',
  'featured',
  'postedAt',
  'expiresAt',
  'sample',
] as const;

export function writeContentSet(
  sourceDir: string,
  targetDir: string,
  ads: readonly GeneratedAd[],
): void {
  copyContentWithoutAds(sourceDir, targetDir);
  const adsDir = join(targetDir, 'ads');
  mkdirSync(adsDir, { recursive: true });
  for (const [state, stateAds] of groupByState(ads)) {
    writeFileSync(join(adsDir, `${state}.csv`), adsCsv(stateAds));
  }
}

function copyContentWithoutAds(sourceDir: string, targetDir: string): void {
  const isAdsFolder = (path: string) => relative(sourceDir, path).split(sep)[0] === 'ads';
  cpSync(sourceDir, targetDir, { recursive: true, filter: (path) => !isAdsFolder(path) });
}

function groupByState(ads: readonly GeneratedAd[]): Map<string, GeneratedAd[]> {
  const byState = new Map<string, GeneratedAd[]>();
  for (const ad of ads) {
    const list = byState.get(ad.state);
    if (list) list.push(ad);
    else byState.set(ad.state, [ad]);
  }
  return byState;
}

function adsCsv(ads: readonly GeneratedAd[]): string {
  return stringify(ads as GeneratedAd[], {
    header: true,
    columns: [...AD_COLUMNS],
    cast: { boolean: (value) => (value ? 'true' : 'false') },
  });
}
