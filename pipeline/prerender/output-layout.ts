// What a build puts in its output folder (`--out`, dist/ by default): the site in site/, which is
// what a static host serves, and beside it what the next build needs (build-manifest.json).
// Vite's own output (dist/client, dist/server) never shares a folder with the pages.

/** The folder of the site inside the output folder. */
export const SITE_FOLDER = 'site';
