import type { ReactNode } from 'react';
import type { CompiledAd } from '../../core/schemas/compiled-content.ts';
import { photoAlt, photoFilePath, type PhotoVariant } from '../../core/schemas/photos.ts';
import { AdPlaceholder } from './AdPlaceholder.tsx';

/**
 * One picture of an ad, whichever kind: a member's published photo (WebP sizes, content-addressed
 * files: `variants`, its size known) or an editor's CSV image (one file under public/, its size
 * unknown: a plain img in a box of the size the CSS gives it).
 */
export interface AdPicture {
  alt: string;
  /** A member's photo: its sizes, narrowest first. */
  variants?: PhotoVariant[];
  /** An editor's image: its path. */
  path?: string;
  width?: number;
  height?: number;
}

/** The ad's pictures in order: a member's photos, else an editor's images; none: the placeholder. */
export function adPictures(ad: CompiledAd): AdPicture[] {
  if (ad.photos && ad.photos.length > 0) return ad.photos;
  return ad.images.map((path, index) => ({
    alt: photoAlt('', index + 1, ad.images.length, ad.title),
    path,
  }));
}

/** An img of `picture`: its sizes up to `widest` in srcset (a member's photo), else its one file. */
export function PictureImg({
  picture,
  widest,
  sizes,
  eager = false,
  fallbackSize,
}: {
  picture: AdPicture;
  widest: number;
  sizes: string;
  /** Above the fold: loaded at once; else lazy. */
  eager?: boolean;
  /** width and height for an editor's image, whose own are unknown (the CSS sizes its box). */
  fallbackSize?: number;
}) {
  const loading = eager ? 'eager' : 'lazy';
  const { variants } = picture;
  if (!variants || variants.length === 0)
    return (
      <img
        src={picture.path}
        alt={picture.alt}
        width={fallbackSize}
        height={fallbackSize}
        loading={loading}
        decoding="async"
      />
    );
  const shown = variants.filter((variant) => variant.width <= widest);
  const used = shown.length > 0 ? shown : variants.slice(0, 1);
  return (
    <img
      src={photoFilePath(used.at(-1)!.key)}
      srcSet={used.map((variant) => `${photoFilePath(variant.key)} ${variant.width}w`).join(', ')}
      sizes={sizes}
      alt={picture.alt}
      width={picture.width}
      height={picture.height}
      loading={loading}
      decoding="async"
    />
  );
}

/** The ad card's picture: the first photo, or the placeholder. */
export function AdCardPicture({ ad }: { ad: CompiledAd }) {
  const first = adPictures(ad)[0];
  if (!first) return <AdPlaceholder adId={ad.id} />;
  // The card's box: 88px wide on phones, 120px from 640px up (tiles-and-ads.css).
  return (
    <PictureImg
      picture={first}
      widest={640}
      sizes="(min-width: 640px) 120px, 88px"
      fallbackSize={120}
    />
  );
}

/**
 * The ad page's pictures: the first large, the others in a row below it (lazy); each a link to
 * itself in the photo viewer (`#photo-2`), unless `preview` (the moderation queue, where several
 * ads share a page and nothing is followed).
 */
export function AdPagePictures({ ad, preview = false }: { ad: CompiledAd; preview?: boolean }) {
  const pictures = adPictures(ad);
  const [first, ...others] = pictures;
  if (!first) return <AdPlaceholder adId={ad.id} />;
  const linked = (position: number, image: ReactNode) =>
    preview ? image : <a href={`#${photoAnchor(position)}`}>{image}</a>;
  return (
    <div className="ad-photos" id={preview ? undefined : 'ad-photos'}>
      <div className="ad-photos__first">
        {linked(
          1,
          <PictureImg picture={first} widest={1280} sizes="240px" eager fallbackSize={320} />,
        )}
      </div>
      {others.length > 0 && (
        <ul className="ad-photos__more">
          {others.map((picture, index) => (
            <li key={index}>
              {linked(
                index + 2,
                <PictureImg picture={picture} widest={1280} sizes="76px" fallbackSize={120} />,
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The id of a photo in the viewer: `photo-1` for the first. */
export const photoAnchor = (position: number) => `photo-${position}`;
