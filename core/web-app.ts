// The installable web app (docs/product.md section 7, "Notifications on this device"): what the web
// app manifest says, written by the build beside robots.txt (pipeline/prerender/prerender.ts) at
// webAppManifestPath(), and the icons it names (public/icons/, made from public/favicon.svg by
// `npm run icons`: pipeline/app-icons.ts). Its colours are the site's own CSS variables, --brand
// and --paper (src/styles/base.css; tests/unit/renderer/web-app.test.tsx holds them equal): the
// theme colour paints the phone's status bar, the background the splash screen before the
// first page.

/** `--brand` of src/styles/base.css: the header's colour, the theme colour of every page. */
export const THEME_COLOUR = '#0f4c5c';
/** `--paper` of src/styles/base.css: the pages' background. */
export const BACKGROUND_COLOUR = '#ffffff';

/** One icon of the manifest: a PNG of public/icons/. */
export interface AppIcon {
  /** Its file name in public/icons/ (and the site's /icons/). */
  file: string;
  size: number;
  /** `any`: the logo as the favicon shows it; `maskable`: on a full square a launcher may crop. */
  purpose: 'any' | 'maskable';
}

/** Browsers ask for 192 and 512 px; Android's launchers crop the maskable one to their shape. */
export const APP_ICONS: readonly AppIcon[] = [
  { file: 'icon-192.png', size: 192, purpose: 'any' },
  { file: 'icon-512.png', size: 512, purpose: 'any' },
  { file: 'icon-maskable-512.png', size: 512, purpose: 'maskable' },
];

/** What iOS puts on the Home Screen (it reads no manifest icon): 180 px, full square. */
export const APPLE_TOUCH_ICON: AppIcon = {
  file: 'apple-touch-icon.png',
  size: 180,
  purpose: 'maskable',
};

export const appIconPath = (icon: AppIcon) => `/icons/${icon.file}`;

/** The manifest of the site (https://www.w3.org/TR/appmanifest/), from content/site.md. */
export function webAppManifest(site: { brand: string; tagline: string }) {
  return {
    id: '/',
    name: site.brand,
    short_name: site.brand,
    description: site.tagline,
    lang: 'en',
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOUR,
    background_color: BACKGROUND_COLOUR,
    icons: APP_ICONS.map((icon) => ({
      src: appIconPath(icon),
      sizes: `${icon.size}x${icon.size}`,
      type: 'image/png',
      purpose: icon.purpose,
    })),
  };
}
