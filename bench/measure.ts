// Everything measured about one built set: page counts by type, bytes written, gzipped HTML per
// type and the JS/CSS of a first visit to each type.
import { firstVisitAssets, type FirstVisit } from './assets.ts';
import type { BuildRun, BuildSummary } from './build.ts';
import { htmlGzipStats, type GzipStats } from './gzip.ts';
import { PAGE_TYPES, scanOutput, type OutputFile, type PageType } from './output.ts';

export interface SetMeasurement {
  name: string;
  run: BuildRun;
  summary: BuildSummary;
  pages: Record<PageType, number>;
  totalPages: number;
  /** `index.html` files: the pages of the site's page list (the others are not-found screens). */
  indexPages: number;
  bytesWritten: number;
  html: Record<PageType, GzipStats | undefined>;
  firstVisit: Record<PageType, FirstVisit | undefined>;
}

export function measureSet(
  name: string,
  outDir: string,
  run: BuildRun,
  summary: BuildSummary,
): SetMeasurement {
  const output = scanOutput(outDir);
  const byType = <T>(value: (files: OutputFile[]) => T) =>
    Object.fromEntries(PAGE_TYPES.map((type) => [type, value(output.pages[type])])) as Record<
      PageType,
      T
    >;
  const pages = byType((files) => files.length);
  const allPages = Object.values(output.pages).flat();
  return {
    name,
    run,
    summary,
    pages,
    totalPages: allPages.length,
    indexPages: allPages.filter((file) => file.path.endsWith('/index.html')).length,
    bytesWritten: output.bytesWritten,
    html: byType(htmlGzipStats),
    firstVisit: byType((files) => {
      const page = files.find((file) => file.path.endsWith('/index.html')) ?? files[0];
      return page ? firstVisitAssets(output.siteDir, page.path) : undefined;
    }),
  };
}
