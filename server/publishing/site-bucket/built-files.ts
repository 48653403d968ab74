// Which files of the built site may have changed since the last upload, read from the build's own
// records rather than by hashing the site (docs/product.md section 6, "The site in a bucket").
// The build manifest says what each render group was made from and the page-hash file the hash of
// each page's data (pipeline/prerender/manifest.ts, page-hashes.ts); a copy of both is kept at each
// upload ({out}/site-upload/). A group whose inputs are those of the last upload has the same
// pages; in another, a page whose data hash is the same has the same bytes. The few files outside
// the groups (the client assets, the favicon, sitemaps, robots.txt, the not-found screens, the
// members' photos) are taken as unchanged while their stamp (size, inode, modification time:
// pipeline/fingerprint.mjs) is the one they had. Only the files found here are read and hashed.
// With no record, or another renderer, every file of the site is a candidate (a full listing).
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileStamp } from '../../../pipeline/fingerprint.mjs';
import { pageHashFileOf, readManifest } from '../../../pipeline/prerender/manifest.ts';
import { pageHashes, readPageHashFile } from '../../../pipeline/prerender/page-hashes.ts';
import { SITE_FOLDER } from '../../../pipeline/prerender/output-layout.ts';
import { NOT_FOUND_FILES, outputFileForPath } from '../../../src/paths.ts';
import { contentTypeOf, type SiteObject } from './site-objects.ts';
import { replaceFile } from '../../../pipeline/replace-file.ts';

/** Where the record of the last upload is kept, in the build's output folder. */
export const UPLOAD_RECORD_FOLDER = 'site-upload';
const BUILD_MANIFEST = 'build-manifest.json';
const OTHER_FILES = 'other-files.tsv';

export interface BuiltChanges {
  /** Files that may differ from the bucket's, hashed. */
  candidates: SiteObject[];
  /** Paths the site no longer has (for a full listing: undefined, every path not listed). */
  removed: string[] | undefined;
  /** Whether every file of the site was listed (no usable record of the last upload). */
  full: boolean;
  /** Files read and hashed. */
  hashed: number;
}

/** A file outside the render groups, as the last upload saw it. */
interface StampedFile {
  stamp: string;
  object: SiteObject;
}

/** Reads and hashes one file of the site. */
export function siteObjectOf(siteDir: string, path: string): SiteObject {
  const bytes = readFileSync(join(siteDir, path));
  return {
    path,
    digest: createHash('md5').update(bytes).digest('hex'),
    size: bytes.length,
    contentType: contentTypeOf(path),
    encoding: 'identity',
  };
}

/** Every file of the site, by path under it (`/`-separated), skipping temporary files. */
export function listSite(siteDir: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(relative(siteDir, path).split(sep).join('/'));
    }
  };
  walk(siteDir);
  return files;
}

/** The files of the site outside the render groups (see the top of this file). */
export function otherFiles(outDir: string): string[] {
  const siteDir = join(outDir, SITE_FOLDER);
  const client = listSite(join(outDir, 'client')).filter((path) => existsSync(join(siteDir, path)));
  const fixed = ['robots.txt', 'sitemap.xml', ...Object.values(NOT_FOUND_FILES)].filter((path) =>
    existsSync(join(siteDir, path)),
  );
  const under = (folder: string) =>
    listSite(join(siteDir, folder)).map((path) => `${folder}/${path}`);
  return [...client, ...fixed, ...under('sitemaps'), ...under('photos')];
}

/** What changed in the site of `outDir` since the upload whose record is there. */
export function changedSinceLastUpload(outDir: string): BuiltChanges {
  const siteDir = join(outDir, SITE_FOLDER);
  const recordDir = join(outDir, UPLOAD_RECORD_FOLDER);
  const now = readManifest(join(outDir, BUILD_MANIFEST));
  const last = readManifest(join(recordDir, BUILD_MANIFEST));
  const nowHashes = readPageHashFile(pageHashFileOf(join(outDir, BUILD_MANIFEST)));
  const lastHashes = readPageHashFile(pageHashFileOf(join(recordDir, BUILD_MANIFEST)));
  const stamped = readStampedFiles(join(recordDir, OTHER_FILES));
  if (!now || !nowHashes || !last || !lastHashes || !stamped || last.renderer !== now.renderer) {
    const candidates = listSite(siteDir).map((path) => siteObjectOf(siteDir, path));
    return { candidates, removed: undefined, full: true, hashed: candidates.length };
  }
  const changed = new Set<string>();
  const removed: string[] = [];
  for (const [key, record] of Object.entries(now.tasks)) {
    const before = last.tasks[key];
    if (before && record.signature !== '' && before.signature === record.signature) continue;
    const pages = pageHashes(nowHashes.lines(key) ?? '');
    const lastPages = pageHashes(lastHashes.lines(key) ?? '');
    for (const [path, hash] of pages) if (lastPages.get(path) !== hash) changed.add(path);
    for (const path of lastPages.keys())
      if (!pages.has(path)) removed.push(outputFileForPath(path));
  }
  for (const key of Object.keys(last.tasks)) {
    if (key in now.tasks) continue;
    for (const path of pageHashes(lastHashes.lines(key) ?? '').keys())
      removed.push(outputFileForPath(path));
  }
  const candidates = [...changed].map((path) => siteObjectOf(siteDir, outputFileForPath(path)));
  let hashed = candidates.length;
  const others = otherFiles(outDir);
  for (const path of others) {
    const before = stamped.get(path);
    if (before && before.stamp === fileStamp(statSync(join(siteDir, path)))) continue;
    candidates.push(siteObjectOf(siteDir, path));
    hashed += 1;
  }
  const present = new Set(others);
  for (const path of stamped.keys()) if (!present.has(path)) removed.push(path);
  return { candidates, removed, full: false, hashed };
}

/**
 * Keeps the record of an upload that succeeded: the build's manifest and page hashes as they are
 * now, and the stamp and digest of each file outside the render groups (`objects` has the digests
 * of what the bucket holds).
 */
export function recordUpload(outDir: string, objects: ReadonlyMap<string, SiteObject>): void {
  const siteDir = join(outDir, SITE_FOLDER);
  const recordDir = join(outDir, UPLOAD_RECORD_FOLDER);
  mkdirSync(recordDir, { recursive: true });
  let lines = '';
  for (const path of otherFiles(outDir)) {
    const object = objects.get(path);
    if (!object) continue;
    const stamp = fileStamp(statSync(join(siteDir, path)));
    lines += `${path}\t${stamp}\t${object.digest}\t${object.size}\t${object.contentType}\n`;
  }
  // The manifest goes first and comes back last: a record without one is no record (a full
  // listing next time), never one whose parts belong to two uploads.
  rmSync(join(recordDir, BUILD_MANIFEST), { force: true });
  copyReplacing(
    pageHashFileOf(join(outDir, BUILD_MANIFEST)),
    pageHashFileOf(join(recordDir, BUILD_MANIFEST)),
  );
  replaceFile(join(recordDir, OTHER_FILES), lines);
  copyReplacing(join(outDir, BUILD_MANIFEST), join(recordDir, BUILD_MANIFEST));
}

/**
 * Drops the record of the last upload: the next one lists every file of the site. For an instance
 * that becomes the publisher, whose record may be older than what another one uploaded since.
 */
export function forgetUploadRecord(outDir: string): void {
  rmSync(join(outDir, UPLOAD_RECORD_FOLDER, BUILD_MANIFEST), { force: true });
}

function copyReplacing(from: string, to: string): void {
  copyFileSync(from, `${to}.next`);
  renameSync(`${to}.next`, to);
}

function readStampedFiles(file: string): Map<string, StampedFile> | undefined {
  if (!existsSync(file)) return undefined;
  const files = new Map<string, StampedFile>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [path, stamp, digest, size, contentType] = line.split('\t');
    if (!path || !stamp || !digest || !size || !contentType) continue;
    files.set(path, {
      stamp,
      object: { path, digest, size: Number(size), contentType, encoding: 'identity' },
    });
  }
  return files;
}
