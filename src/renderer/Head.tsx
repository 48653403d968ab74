import { webAppManifestPath } from '../../core/paths.ts';
import { APPLE_TOUCH_ICON, appIconPath, THEME_COLOUR } from '../../core/web-app.ts';
import type { PageAssets } from './assets.ts';
import type { HeadMeta } from './page-shell.ts';

/** What a page's <head> holds: its metadata, written into the prerendered HTML, and its assets. */
export function HeadContent({
  head,
  brand,
  assets,
}: {
  head: HeadMeta;
  brand: string;
  assets: PageAssets;
}) {
  return (
    <>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{head.title}</title>
      <meta name="description" content={head.description} />
      <link rel="canonical" href={head.canonicalUrl} />
      <meta name="robots" content={head.robots} />
      {head.feed && (
        <link
          rel="alternate"
          type="application/atom+xml"
          title={head.feed.title}
          href={head.feed.href}
        />
      )}
      <meta property="og:site_name" content={brand} />
      <meta property="og:title" content={head.title} />
      <meta property="og:description" content={head.description} />
      <meta property="og:type" content={head.ogType} />
      <meta property="og:url" content={head.canonicalUrl} />
      <meta name="theme-color" content={THEME_COLOUR} />
      <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      {/* The installable web app (core/web-app.ts); iOS takes its Home Screen icon from here. */}
      <link rel="manifest" href={webAppManifestPath()} />
      <link rel="apple-touch-icon" href={appIconPath(APPLE_TOUCH_ICON)} />
      {assets.stylesheets.map((href) => (
        <link key={href} rel="stylesheet" href={href} />
      ))}
      {assets.scripts.map((src) => (
        <script key={src} type="module" src={src} async />
      ))}
    </>
  );
}
