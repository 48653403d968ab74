// https://vike.dev/config
import type { Config } from 'vike/types';

export default {
  // Pages are plain HTML: no client-side routing, no hydration. Scripts that enhance a page
  // (the sign-up dialog) are loaded on their own.
  clientRouting: false,
  passToClient: [],
  prerender: false,
  // Page components render only on the server (and in the prerenderer): none ships to browsers.
  meta: {
    Page: { env: { server: true, client: false } },
    // Our own setting: the pages a folder prerenders (src/pages/prerender-groups.ts). Vike never
    // calls it; the build's prerenderer does, through the page registry (src/pages/registry.ts).
    prerenderUrls: { env: { server: true } },
  },
} satisfies Config;
