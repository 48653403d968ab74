// The web app's icons (core/web-app.ts), drawn from the favicon (public/favicon.svg) into
// public/icons/ by `npm run icons`, which the build then copies into the site as it copies the
// favicon. They are files of the repository, as the favicon is, so that no build runs an image
// library for them; `npm run icons -- --check` fails when one is not what the favicon gives (the
// unit test runs the same comparison).
//
// The `any` icons are the favicon as it is (its rounded square). The maskable one and the Apple
// touch icon fill the whole square with the favicon’s colour, the mark drawn at 85 %, its farthest
// point 8 units from the middle of 32: Android crops a maskable icon to its launcher’s shape (a
// circle keeps 12.8 units around the middle), and iOS rounds the corners itself.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { APP_ICONS, APPLE_TOUCH_ICON, type AppIcon } from '../core/web-app.ts';

/** The favicon's shapes inside its <svg>, and its background's fill. */
function faviconParts(svg: string): { inner: string; fill: string } {
  const inner = /<svg[^>]*>([\s\S]*)<\/svg>/.exec(svg)?.[1];
  const fill = /<rect[^>]*fill="([^"]+)"/.exec(svg)?.[1];
  if (!inner || !fill) throw new Error('public/favicon.svg: expected an <svg> with a <rect fill>');
  return { inner, fill };
}

/** The SVG an icon is drawn from: the favicon, or its mark on a full square. */
export function iconSvg(favicon: string, icon: AppIcon): string {
  if (icon.purpose === 'any') return favicon;
  const { inner, fill } = faviconParts(favicon);
  // The favicon's own background (its first rect) stays; the full square goes under it.
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
    `<rect width="32" height="32" fill="${fill}"/>` +
    `<g transform="translate(16 16) scale(0.85) translate(-16 -16)">${inner}</g></svg>`
  );
}

/** The icon's PNG bytes, drawn at its size from its SVG. */
export async function renderIcon(favicon: string, icon: AppIcon): Promise<Buffer> {
  // Drawn at the density that makes the 32-unit favicon the icon's size, not scaled from 32 px.
  const density = Math.ceil((72 * icon.size) / 32);
  return sharp(Buffer.from(iconSvg(favicon, icon)), { density })
    .resize(icon.size, icon.size)
    .png({ compressionLevel: 9 })
    .toBuffer();
}

export const EVERY_ICON: readonly AppIcon[] = [...APP_ICONS, APPLE_TOUCH_ICON];

/**
 * Whether two PNGs show the same picture: the same size, and no channel of any pixel more than 2
 * apart (a newer image library may round a pixel otherwise).
 */
export async function samePicture(a: Buffer, b: Buffer): Promise<boolean> {
  const [one, two] = await Promise.all(
    [a, b].map((png) => sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })),
  );
  if (one!.info.width !== two!.info.width || one!.info.height !== two!.info.height) return false;
  return one!.data.every((value, index) => Math.abs(value - two!.data[index]!) <= 2);
}

/**
 * Draws every icon from `publicDir`'s favicon.svg into `publicDir`/icons/ (or, with `check`, only
 * compares); each icon's file and whether it was written, already right, or out of date.
 */
export async function drawAppIcons(
  publicDir: string,
  { check = false } = {},
): Promise<Array<{ file: string; state: 'written' | 'up to date' | 'out of date' }>> {
  const favicon = readFileSync(join(publicDir, 'favicon.svg'), 'utf8');
  const states = [];
  for (const icon of EVERY_ICON) {
    const file = join(publicDir, 'icons', icon.file);
    const drawn = await renderIcon(favicon, icon);
    const same = existsSync(file) && (await samePicture(readFileSync(file), drawn));
    if (!same && !check) writeFileSync(file, drawn);
    states.push({
      file: `icons/${icon.file}`,
      state: same
        ? ('up to date' as const)
        : check
          ? ('out of date' as const)
          : ('written' as const),
    });
  }
  return states;
}
