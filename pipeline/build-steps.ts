// The build runs from Vite's server build, beside Vike's own server entry ({out}/server/): one
// bundled file a step, with source maps, so a failure names the TypeScript line. vite.config.ts
// builds these entries; scripts/build.mjs runs `build`, which runs the others.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const BUILD_STEPS = {
  /** Runs the steps below one after the other (pipeline/build.ts). */
  build: 'pipeline/build.ts',
  'compile-content': 'scripts/compile-content.ts',
  'ad-check-worker': 'pipeline/compile/ad-check-worker.ts',
  'prerender-pages': 'scripts/prerender-pages.ts',
  'prerender-worker': 'pipeline/prerender/worker.ts',
  'search-index-worker': 'pipeline/prerender/search-index-worker.ts',
  'vike-assets': 'pipeline/prerender/vike-assets.mjs',
  /** The server's warm publisher: runs a small site's builds in one long-lived process. */
  'publish-worker': 'pipeline/publish-worker.ts',
  /**
   * Not a build step: the server (`npm start`, `npm run serve`), built here because the pages it
   * renders on request come from the page registry, which only runs where Vite builds the code.
   */
  serve: 'server/index.ts',
  /** Not a build step either: the server's photo worker process (server/photos/processing-pool.ts). */
  'photo-worker': 'server/photos/photo-worker.ts',
  /** Nor this: `npm run alerts -- send`, which the server runs every hour (server/saved-searches/digest-schedule.ts). */
  alerts: 'scripts/alerts.ts',
} as const;

export type BuildStep = keyof typeof BUILD_STEPS;

/** Where the bundled steps are: set by scripts/build.mjs for the build and everything it starts. */
export const STEPS_DIR_VARIABLE = 'LOCALBOARD_STEPS_DIR';

export function buildStepUrl(step: BuildStep): URL {
  const dir = process.env[STEPS_DIR_VARIABLE];
  if (!dir) throw new Error(`${STEPS_DIR_VARIABLE} is not set: run the build with npm run build`);
  return pathToFileURL(join(dir, `${step}.mjs`));
}
