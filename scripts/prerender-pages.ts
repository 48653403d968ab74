// The build's last step: prerenders every page of the compiled content into {out}/site, once the
// client assets are built (pipeline/prerender/prerender-pages-step.ts says how, and its options).
// Runs bundled (pipeline/build-steps.ts).
import { prerenderPagesStep } from '../pipeline/prerender/prerender-pages-step.ts';

await prerenderPagesStep();
