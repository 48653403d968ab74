// What a build puts in its output folder (`--out`, dist/ by default): the site in site/, which is
// what a static host serves, and beside it what the next build needs (build-manifest.json).
// Vite's own output (dist/client, dist/server) never shares a folder with the pages.
import { join } from 'node:path';

/** The folder of the site inside the output folder. */
export const SITE_FOLDER = 'site';

/** What each render group was made from (manifest.ts), beside the site. */
export const MANIFEST_FILE = 'build-manifest.json';

/**
 * Node's cache of the build steps' compiled code (NODE_COMPILE_CACHE), inside the output folder:
 * made by the first build, it spares every later one (each publish) compiling the same modules.
 */
export const COMPILE_CACHE_FOLDER = 'node-compile-cache';

/**
 * Beside the site: the keys of photos a build took out of public reach in a bucket, one a line
 * (pipeline/compile/published-photos.ts), until the publisher has asked the CDN to forget them
 * (server/publishing/site-bucket/bucket-publishing.ts).
 */
export const photosTakenDownFile = (outDir: string) => join(outDir, 'photos-taken-down.txt');
