// What a build wrote: every file under its output folder with its size, and the HTML pages of
// the site ({out}/site) sorted by page type, told apart by the shape of their path.
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { SITE_FOLDER } from '../pipeline/prerender/output-layout.ts';

export const PAGE_TYPES = ['landing', 'state', 'city', 'cityPage', 'ad', 'other'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

export const PAGE_TYPE_LABELS: Record<PageType, string> = {
  landing: 'landing',
  state: 'state',
  city: 'city p.1',
  cityPage: 'city p.2+',
  ad: 'ad',
  other: 'other',
};

export interface OutputFile {
  /** Absolute path. */
  path: string;
  bytes: number;
}

export interface BuildOutput {
  siteDir: string;
  bytesWritten: number;
  /** HTML files under {out}/site by type, each list sorted by path. */
  pages: Record<PageType, OutputFile[]>;
}

export function scanOutput(outDir: string): BuildOutput {
  const siteDir = join(outDir, SITE_FOLDER);
  const files = listFiles(outDir);
  const pages = Object.fromEntries(PAGE_TYPES.map((type) => [type, [] as OutputFile[]])) as Record<
    PageType,
    OutputFile[]
  >;
  for (const file of files) {
    const segments = relative(siteDir, file.path).split(sep);
    if (segments[0] === '..' || !file.path.endsWith('.html')) continue;
    pages[pageTypeOf(segments)].push(file);
  }
  for (const list of Object.values(pages)) list.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { siteDir, bytesWritten: files.reduce((sum, file) => sum + file.bytes, 0), pages };
}

/** The type of an HTML file from its path segments under {out}/site. */
export function pageTypeOf(segments: readonly string[]): PageType {
  const shape = segments.map((segment, index) => (isFixed(segments, index) ? segment : '*'));
  switch (shape.join('/')) {
    case 'index.html':
      return 'landing';
    case 'state/*/index.html':
      return 'state';
    case 'city/*/*/index.html':
      return 'city';
    case 'city/*/*/page/*/index.html':
      return 'cityPage';
    case 'city/*/*/ad/*/index.html':
      return 'ad';
    default:
      return 'other';
  }
}

/** In the path shapes above, the names of states, cities, page numbers and ad ids vary. */
function isFixed(segments: readonly string[], index: number): boolean {
  if (index === 0 || index === segments.length - 1) return true;
  return segments[0] === 'city' && index === 3 && segments.length === 6;
}

function listFiles(dir: string): OutputFile[] {
  const files: OutputFile[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push({ path, bytes: statSync(path).size });
    }
  };
  walk(dir);
  return files;
}
