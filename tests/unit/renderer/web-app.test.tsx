// The installable web app's manifest and icons (core/web-app.ts): what the manifest says, its
// colours the CSS variables they stand for, the icons the PNGs of the sizes it declares and what
// `npm run icons` draws from the favicon, and every page's head linking them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { drawAppIcons, EVERY_ICON } from '../../../pipeline/app-icons.ts';
import {
  APP_ICONS,
  APPLE_TOUCH_ICON,
  appIconPath,
  BACKGROUND_COLOUR,
  THEME_COLOUR,
  webAppManifest,
} from '../../../core/web-app.ts';
import { HeadContent } from '../../../src/renderer/Head.tsx';
import { NO_ASSETS } from '../../../src/renderer/assets.ts';
import { renderToStaticMarkup } from 'react-dom/server';

const root = join(import.meta.dirname, '..', '..', '..');
const publicDir = join(root, 'public');

/** A custom property's value in a stylesheet's :root. */
function cssVariable(sheet: string, name: string): string | undefined {
  return new RegExp(`${name}:\\s*([^;]+);`).exec(sheet)?.[1]?.trim();
}

describe('the web app manifest', () => {
  const manifest = webAppManifest({ brand: 'Localboard', tagline: 'Local ads' });

  test('names the brand, starts at the home page and runs standalone', () => {
    expect(manifest).toMatchObject({
      id: '/',
      name: 'Localboard',
      short_name: 'Localboard',
      description: 'Local ads',
      start_url: '/',
      scope: '/',
      display: 'standalone',
    });
  });

  test('its colours are the CSS variables --brand and --paper', () => {
    const sheet = readFileSync(join(root, 'src', 'styles', 'base.css'), 'utf8');
    expect(cssVariable(sheet, '--brand')).toBe(THEME_COLOUR);
    expect(cssVariable(sheet, '--paper')).toBe(BACKGROUND_COLOUR);
    expect(manifest.theme_color).toBe(THEME_COLOUR);
    expect(manifest.background_color).toBe(BACKGROUND_COLOUR);
  });

  test('has a 192 and a 512 px icon, and a maskable one', () => {
    expect(manifest.icons).toEqual([
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      {
        src: '/icons/icon-maskable-512.png',
        sizes: '512x512',
        type: 'image/png',
        purpose: 'maskable',
      },
    ]);
  });
});

describe('the icons', () => {
  test.each(EVERY_ICON.map((icon) => [icon.file, icon] as const))(
    'public/icons/%s is a PNG of its size',
    async (_file, icon) => {
      const meta = await sharp(readFileSync(join(publicDir, 'icons', icon.file))).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', icon.size, icon.size]);
    },
  );

  test('are what npm run icons draws from the favicon', async () => {
    const states = await drawAppIcons(publicDir, { check: true });
    expect(states.filter((icon) => icon.state !== 'up to date')).toEqual([]);
  });
});

test('every page’s head links the manifest, the Apple touch icon and the theme colour', () => {
  const head = renderToStaticMarkup(
    <HeadContent
      brand="Localboard"
      assets={NO_ASSETS}
      head={{
        title: 'A page',
        description: 'About it',
        canonicalUrl: 'https://localboard.example/',
        robots: 'index, follow',
        ogType: 'website',
      }}
    />,
  );
  expect(head).toContain('<link rel="manifest" href="/manifest.webmanifest"/>');
  expect(head).toContain(`<link rel="apple-touch-icon" href="${appIconPath(APPLE_TOUCH_ICON)}"/>`);
  expect(head).toContain(`<meta name="theme-color" content="${THEME_COLOUR}"/>`);
  expect(APP_ICONS.map((icon) => icon.size)).toEqual([192, 512, 512]);
});
